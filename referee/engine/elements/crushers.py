"""Crushers: destroy any robot on their square in their active phases."""

from __future__ import annotations

from .. import looks, shown, timing
from ..context import TurnContext
from ..kinds import Field, Kind

shown.cause("crusher", story="crushed")

# the steps of the timing table only this kind acts in, each right after the step named
timing.declare("board.crushers", "active crushers crush", after="board.rotating_rooms")


def crush(ctx: TurnContext, phase: int) -> None:
    crushers = ctx.board.layer("crusher")
    for robot in list(ctx.robots):
        els = crushers.get(robot.pos) if robot.pos else None
        if els:
            for el in els:  # (a loop: no generator to make)
                if phase in el["phases"]:
                    ctx.destroy(robot, "crusher")
                    break


CRUSHER = Kind(
    flat=False,
    name="crusher",
    doc='destroys a robot on its square in the listed register phases',
    key='X crusher',
    fields=(Field("phases", "phases"),),
    summary="destroys a robot on its square in the listed register phases",
    steps={"board.crushers": crush},
    glyph=lambda e: "X",
    rank=80,
    legend=lambda e: f"crusher phases {','.join(map(str, e['phases']))}",
)

# the pictures: crushing in its phases (:mod:`referee.engine.looks`)
looks.declare("crusher", looks.active_in("phases"))
