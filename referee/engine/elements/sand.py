"""Tilted ground (sand, the slopes of a crater): a robot ending its move there slips down one square.

Each square slopes down toward ``dir``. A robot whose movement card ends on it slips one square that
way, keeping its facing; only one square, even when it lands on more tilted ground. A wall or a
real robot in the way holds it (it does not push); slipping into a pit or off the board destroys
it. A robot that only turns, or that is pushed or conveyed onto the slope, stays.
"""

from __future__ import annotations

from ..cards import Card
from ..context import TurnContext
from ..geometry import ARROWS
from ..hooks import on
from ..kinds import Field, Kind
from ..movement import SLIDE, MovePlan, try_step
from ..state import Robot


def slip(ctx: TurnContext, robot: Robot, card: Card, plan: MovePlan) -> None:
    els = ctx.board.layer("sand").get(robot.pos) if robot.pos is not None else None
    if not els:
        return
    ctx.flush_moves()
    try_step(ctx, robot, els[0]["dir"], SLIDE, push=False)


SAND = Kind(
    name="sand",
    doc=('tilted ground (sand) sloping down toward `dir`: a robot whose movement card ends on it slips one '
         'square downhill, keeping its facing (a wall or a robot holds it)'),
    key='.v. sand',
    fields=(Field("dir", "dir"),),
    summary="tilted ground sloping toward dir: a movement card ending on it slips one square downhill",
    group="floor",
    hooks=(on("move.ramp_slide", slip),),
    glyph=lambda e: f".{ARROWS[e['dir']]}.",
    rank=142,
    legend=lambda e: f"sand sloping {'NESW'[e['dir']]}",
)
