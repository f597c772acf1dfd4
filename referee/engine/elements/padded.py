"""Padded (rubber) squares: a robot whose movement card ends on one bounces on.

It moves again as many squares as its card just moved it, the same way, at the card's priority
(pushing robots in its way as under the card), one square at a time. The bounce ends early when a
wall, the board edge or a robot that cannot be pushed stops it, or as soon as the robot lands on a
square that is not padded. Robots pushed or carried onto a padded square do not bounce. A padded
wall (``padded_walls.py``) met on the way turns the bounce back (``card_moves.turn_back``).
"""

from __future__ import annotations

from .. import timing
from ..card_moves import card_step
from ..cards import Card
from ..context import TurnContext
from ..hooks import on
from ..kinds import Kind
from ..movement import MOVED, MovePlan
from ..state import Robot

# the steps of the timing table only this kind acts in, each right after the step named
timing.declare("move.padded", timing.STOP, "padded squares double movement", after="move.soap")


def bounce(ctx: TurnContext, robot: Robot, card: Card, plan: MovePlan) -> None:
    pos = robot.pos
    if pos is None:
        return
    moved = plan.moved or abs(pos[0] - plan.start[0]) + abs(pos[1] - plan.start[1])
    padded = ctx.board.layer("padded")
    for _ in range(moved):
        if card_step(ctx, robot, plan, card.priority) != MOVED or robot.pos not in padded:
            return


PADDED = Kind(
    name="padded",
    doc=('a padded (rubber) square: a robot whose movement card ends on it bounces on as many squares again, '
         'the same way, until a wall, a robot it cannot push or a square that is not padded stops it'),
    key='{ } padded',
    summary="a robot whose movement card ends on it moves as many squares again, while on padded squares",
    group="floor",
    hooks=(on("move.padded", bounce),),
    glyph=lambda e: "{ }",
    rank=160,
)
