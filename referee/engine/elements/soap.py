"""Soap (RoboFactory): a robot on soap turns twice as far and loses the first square of a move.

A turn card executed on soap is doubled: a quarter turn becomes a U-turn, a U-turn a full circle
(the robot ends facing as it was). A movement card executed from soap loses its first square, as
in water.
"""

from __future__ import annotations

from .. import timing
from ..cards import Card
from ..context import TurnContext
from ..hooks import on
from ..kinds import Kind
from ..movement import MovePlan
from ..state import Robot
from ..timing import CARD
from .water import slow

# the steps of the timing table only this kind acts in, each right after the step named
timing.declare("move.soap", timing.CARD, "rotate cards on soap", after="move.big_drain")


def spin(ctx: TurnContext, robot: Robot, card: Card, plan: MovePlan) -> None:
    if card.type.turn:
        plan.turn = (plan.turn * 2) % 4


SOAP = Kind(
    name="soap",
    doc=('soap: a turn card executed on it is doubled (a quarter turn becomes a U-turn, a U-turn a full circle); '
         'a movement card executed from it loses its first square'),
    key='oOo soap',
    summary="soap: turn cards on it are doubled; a movement card from it loses its first square",
    group="floor",
    hooks=(on("move.water", slow, CARD), on("move.soap", spin)),
    glyph=lambda e: "oOo",
    rank=147,
)
