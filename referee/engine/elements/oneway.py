"""One-way walls: a wall on one side of a square that robots may cross leaving the square, never
entering it. It stops robots (card moves, pushes, belts) coming in from the neighbouring square;
lasers pass it both ways, like any other open side.
"""

from __future__ import annotations

from ..board import Board, Element
from ..context import TurnContext
from ..geometry import ARROWS, opposite, step
from ..kinds import Field, Kind
from ..state import Robot


def bar(ctx: TurnContext, robot: Robot, d: int) -> bool:
    return False


def _install(board: Board, el: Element) -> None:
    outside = step(el.at, el["side"])
    board.add_hook("move.walls", (outside[0], outside[1], opposite(el["side"])), bar)


ONE_WAY = Kind(
    name="one_way_wall",
    doc=('a one-way wall on `side` of the square: a robot may leave the square through it, but nothing enters '
         'the square through it (card moves, pushes, belts); lasers pass it'),
    key='ow> one-way wall (out)',
    fields=(Field("side", "dir"),),
    summary="a wall on side of the square that robots may cross going out, never coming in",
    install=_install,
    glyph=lambda e: f"ow{ARROWS[e['side']]}",
    rank=138,
)
