"""Spiky walls: walls (robots and lasers stop at them) with spikes; a robot that runs against one, or
is pushed or carried against it, takes 1 damage each time it tries to cross. The spikes face both
ways: the wall's two faces are spiky.
"""

from __future__ import annotations

from .. import shown
from ..board import Board, Element
from ..context import TurnContext
from ..kinds import Field, Kind
from ..state import Robot
from .sides import one_special_per_side

shown.cause("spiky wall")


def prick(ctx: TurnContext, robot: Robot, d: int) -> bool:
    ctx.damage(robot, 1, "spiky wall")
    return False


def _install(board: Board, el: Element) -> None:
    for side in el["sides"]:
        board.add_wall(el.at, side)
        board.add_side_hook("move.walls", el.at, side, prick)


SPIKY = Kind(
    name="spiky_wall",
    doc=('a spiky wall on the listed `sides`: a wall (it stops robots and lasers) that does 1 damage to a robot '
         'running, pushed or carried against it, from either face'),
    key='sp spiky wall',
    fields=(Field("sides", "sides"),),
    summary="a wall on the given sides that does 1 damage to a robot running or pushed against it",
    install=_install,
    finish=one_special_per_side,
    glyph=lambda e: "sp",
    rank=149,
)
