"""Waterfalls (RoboFactory): a current that carries robots down one or more levels.

A waterfall is flowing water (a movement card from it loses its first square) that, with the
currents, carries the robots on it one square toward ``dir``, with the belts' conflict rules. A
robot carried over the edge drops to the level below: 2 damage for every level it falls (the
ledge's 2, and 2 more for each level past the first).
"""

from __future__ import annotations

from .. import shown
from ..context import TurnContext
from ..conveying import convey
from ..geometry import ARROWS
from ..hooks import on
from ..kinds import Field, Kind
from .levels import height
from .water import slow

# what moved a robot, as the report and the story tell it (engine/shown.py)
shown.mover("carried", "waterfall", "carried down a waterfall", on="waterfall")

shown.cause("waterfall")


def fall_down(ctx: TurnContext, phase: int) -> None:
    board = ctx.board
    lanes = board.cache.get("waterfalls")
    if lanes is None:
        lanes = board.cache["waterfalls"] = {sq: els[0]["dir"] for sq, els in board.layer("waterfall").items()}
    moves = [(r, lanes[r.pos]) for r in ctx.robots if r.pos in lanes]
    if not moves:
        return
    before = {r.name: height(board, r.pos) for r, _ in moves if r.pos is not None}
    convey(ctx, moves, lanes, False, "carried")
    for robot, _ in moves:
        if robot.pos is not None:
            levels = before[robot.name] - height(board, robot.pos)
            if levels > 1:
                ctx.damage(robot, 2 * (levels - 1), "waterfall")


WATERFALL = Kind(
    name="waterfall",
    doc=('a waterfall: flowing water carrying robots one square toward `dir` with the currents, down over the '
         'ledge below: 2 damage for every level fallen'),
    key='~v| waterfall',
    fields=(Field("dir", "dir"),),
    summary="a waterfall: carries robots toward dir with the currents, down the levels: 2 damage per level",
    group="floor",
    hooks=(on("move.water", slow),),
    steps={"board.currents": fall_down},
    glyph=lambda e: f"~{ARROWS[e['dir']]}|",
    rank=167,
)
