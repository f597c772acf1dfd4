"""Padded (rubber) walls: a wall that turns back a robot moving on padding.

A padded wall is a wall on a square's side for everything (robots, pushes, belts, lasers). A robot
standing on a padded square that runs into it under its own movement card, or bounces into it (see
``padded.py``), goes into the wall and back to its square: that counts as one square of its move, and
the rest of the move goes the opposite way, the robot keeping its facing. Off padding it is a plain wall.
"""

from __future__ import annotations

from .. import timing
from ..board import Board, Element
from ..card_moves import turn_back
from ..context import TurnContext
from ..kinds import Field, Kind
from ..state import Robot

# the steps of the timing table only this kind acts in, each right after the step named
timing.declare("move.padded_walls", timing.CROSS, "padded walls", after="move.ice")


def rebound(ctx: TurnContext, robot: Robot, d: int) -> bool:
    """Block the side; a robot on padding is turned back (its card's loop reverses the move)."""
    if robot.pos in ctx.board.layer("padded"):
        turn_back(ctx, robot, d)
    return False


def _install(board: Board, el: Element) -> None:
    for side in el["sides"]:
        board.add_wall(el.at, side)
        board.add_side_hook("move.padded_walls", el.at, side, rebound)


PADDED_WALL = Kind(
    name="padded_wall",
    doc=('a padded (rubber) wall on the listed `sides`: a wall for robots, pushes and lasers; a robot on a '
         'padded square running or bouncing into it goes into it and back (one square of its move) and moves '
         'the rest of the way backwards'),
    key='pw padded wall',
    fields=(Field("sides", "sides"),),
    summary="a wall; a robot on padding moving into it bounces back, the rest of its move going the other way",
    install=_install,
    glyph=lambda e: "pw",
    rank=162,
)
