"""Tilted ground (sand, the slopes of a crater): a robot ending its move there slips down one square.

Each square slopes down toward ``dir``. A robot whose movement card ends on it slips one square that
way, keeping its facing; only one square, even when it lands on more tilted ground. A wall or a
real robot in the way holds it (it does not push); slipping into a pit or off the board destroys
it. A robot that only turns, or that is pushed by a robot or conveyed onto the slope, stays. Robots a
pusher or hydraulic pusher pushes onto it slip too (the timing text's "get affected by them (again!)"),
all at once, as belts move robots (of two slipping into one square neither goes); not under the house
rule ``pushed_not_affected``.
"""

from __future__ import annotations

from ..cards import Card
from ..context import TurnContext
from ..geometry import ARROWS
from ..hooks import on
from ..kinds import Field, Kind
from ..movement import SLIDE, MovePlan, convey, register_pushed_onto, try_step
from ..state import Robot


def slip(ctx: TurnContext, robot: Robot, card: Card, plan: MovePlan) -> None:
    els = ctx.board.layer("sand").get(robot.pos) if robot.pos is not None else None
    if not els:
        return
    ctx.flush_moves()
    try_step(ctx, robot, els[0]["dir"], SLIDE, push=False)


def pushed(ctx: TurnContext, moved: list[tuple[Robot, int]]) -> None:
    """Robots pushers pushed onto the slope slip one square downhill, all at once."""
    layer = ctx.board.layer("sand")
    slips = [(robot, layer[robot.pos][0]["dir"]) for robot, _ in moved if robot.pos in layer]
    convey(ctx, slips, {}, False, "slide")


register_pushed_onto("sand", pushed)


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
