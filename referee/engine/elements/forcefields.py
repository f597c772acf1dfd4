"""Force fields (energy walls) and loopholes: on the listed sides of a square they stop robots like a wall (card
moves, pushes, belts), always, but every laser passes through them.
"""

from __future__ import annotations

from ..board import Board, Element
from ..context import TurnContext
from ..kinds import Field, Kind
from ..state import Robot
from .sides import one_special_per_side


def repel(ctx: TurnContext, robot: Robot, d: int) -> bool:
    return False


def _install(board: Board, el: Element) -> None:
    for side in el["sides"]:
        board.add_side_hook("move.walls", el.at, side, repel)


FORCE_FIELD = Kind(
    name="force_field",
    doc=('a force field (energy wall) on the listed `sides`: it stops robots like a wall, but lasers (board '
         'and robot) shoot through it'),
    key='FF force field',
    fields=(Field("sides", "sides"),),
    summary="an energy wall on the given sides: stops robots, lets lasers through",
    install=_install,
    finish=one_special_per_side,
    glyph=lambda e: "FF",
    rank=140,
)

LOOPHOLE = Kind(
    name="loophole",
    doc=('a loophole on the listed `sides`: a wall with slits, it stops robots like a wall, but lasers shoot '
         'through it'),
    key='LH loophole',
    fields=(Field("sides", "sides"),),
    summary="a wall with slits on the given sides: stops robots, lets lasers through",
    install=_install,
    finish=one_special_per_side,
    glyph=lambda e: "LH",
    rank=153,
)
