"""Hydraulic trapdoors (RoboFactory): a trapdoor that holds so many robots and gives way under one more.

A hydraulic trapdoor is one or more squares with the same ``door`` number (the rule texts show them
1, 4 or 9 squares big); its ``carry`` (1-8) is how many real robots it holds. When a real robot
enters one of its squares by any move (card, push, belt...) and the door then holds more real robots
than it can carry, it opens at once under every other robot on it (virtual ones too: they fall and
are destroyed) and shuts again: the robot that set it off is left alone on it. Virtual robots weigh
nothing (they never set it off); flying robots are above it. It acts with the pits.
"""

from __future__ import annotations

from ..context import TurnContext
from ..geometry import Square
from ..hooks import on
from ..kinds import Field, Kind
from ..state import FLYING, Robot
from ..timing import ENTER

NAME = "hydraulic_trapdoor"


def load(ctx: TurnContext, robot: Robot, came_from: Square, d: int) -> None:
    if robot.virtual:
        return
    layer = ctx.board.layer(NAME)
    sq = robot.pos
    assert sq is not None
    el = layer[sq][0]
    door = {at for at, els in layer.items() if els[0]["door"] == el["door"]}
    on_it = [r for r in ctx.robots if r.pos in door and FLYING not in r.statuses]
    if sum(1 for r in on_it if not r.virtual) <= el["carry"]:
        return
    for other in on_it:
        if other is not robot:
            ctx.destroy(other, "trapdoor")


HYDRAULIC_TRAPDOOR = Kind(
    name=NAME,
    doc=('a square of hydraulic trapdoor `door` (1-9; its squares share the number) that carries `carry` (1-8, '
         'default 1) real robots: a real robot entering it so that it holds more sets it off: every other robot on '
         'the door falls, and it is left alone on the shut door'),
    key='H1 hydraulic trapdoor',
    fields=(Field("carry", "int", required=False, default=1, lo=1, hi=8),
            Field("door", "int", required=False, default=1, lo=1, hi=9)),
    summary="a hydraulic trapdoor: one robot more than it carries opens it under the others",
    group="floor",
    hooks=(on("move.pits", load, ENTER),),
    glyph=lambda e: f"H{e['carry']}",
    rank=49,
    legend=lambda e: f"hydraulic trapdoor {e['door']}, carries {e['carry']}",
)
