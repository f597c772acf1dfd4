"""Elevators: up in the register phases listed on them, at ground level in the others; open floor
either way. When an elevator comes down (at the beginning of a phase in which it is down after a
phase in which it was up; phase 1 follows the last turn's phase 5) it crushes every robot under it.
"""

from __future__ import annotations

from .. import looks, shown
from ..board import Element
from ..context import TurnContext
from ..kinds import Field, Kind

shown.cause("elevator", into="down an elevator shaft")


def comes_down(el: Element, phase: int) -> bool:
    before = 5 if phase == 1 else phase - 1
    return before in el["phases"] and phase not in el["phases"]


def descend(ctx: TurnContext, phase: int) -> None:
    lifts = ctx.board.layer("elevator")
    for robot in list(ctx.robots):
        els = lifts.get(robot.pos) if robot.pos is not None else None
        if els and any(comes_down(el, phase) for el in els):
            ctx.destroy(robot, "elevator")


ELEVATOR = Kind(
    name="elevator",
    doc=('an elevator: up in the listed register phases, down in the others, open floor either way; as the '
         'phase begins in which it comes down, it crushes the robots under it'),
    key='|E| elevator',
    fields=(Field("phases", "phases"),),
    summary="open floor, up in the listed phases; coming down (as a phase begins) it crushes robots on it",
    group="floor",
    steps={"reveal.virtualizers": descend},
    glyph=lambda e: "|E|",
    rank=141,
    legend=lambda e: f"elevator up in phases {','.join(map(str, e['phases']))}",
)

# the pictures: up in its phases (:mod:`referee.engine.looks`)
looks.declare("elevator", looks.active_in("phases"))
