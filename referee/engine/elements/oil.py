"""Oil slicks (a kind written only against the engine's hooks).

A movement card executed from oil loses its first square, as in water. A robot whose movement card
ends on oil does not stop there: it keeps sliding the way it was moving, one square at a time,
until it stands on a square without oil, or a wall or a real robot in the way stops it (it does
not push). Sliding off the board or into a pit destroys it, as any move does. A robot pushed or
conveyed onto oil does not slide.
"""

from __future__ import annotations

from ..cards import Card
from ..context import TurnContext
from ..hooks import on
from ..kinds import Kind
from ..movement import MOVED, SLIDE, MovePlan, try_step
from ..state import Robot
from ..timing import CARD, STOP
from .water import slow


def slide(ctx: TurnContext, robot: Robot, card: Card, plan: MovePlan) -> None:
    oil = ctx.board.layer("oil")
    if robot.pos == plan.start:
        return
    ctx.flush_moves()
    while robot.pos in oil:
        if try_step(ctx, robot, plan.direction, SLIDE, push=False) != MOVED:
            return


OIL = Kind(
    name="oil",
    doc=('an oil slick: a movement card executed from it loses its first square; a robot whose movement card '
         'ends on it slides on the way it moved until dry floor, a wall or a robot stops it'),
    key='%%% oil',
    summary="an oil slick: a card executed from it loses its first square; a card ending on it slides on",
    group="floor",
    hooks=(on("move.water", slow, CARD), on("move.oil", slide, STOP)),
    glyph=lambda e: "%%%",
    rank=22,
)
