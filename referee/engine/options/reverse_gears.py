"""Reverse Gears: a Back Up may move 2 squares back, in the registers the player names."""

from __future__ import annotations

from ..cards import Card
from ..context import TurnContext
from ..hooks import Effect, on
from ..movement import MovePlan
from ..option_deck import REVERSE_GEARS
from ..option_orders import REVERSE_GEARS as SUBJECT
from ..option_orders import order_key
from ..state import Robot


def reverse(ctx: TurnContext, robot: Robot, card: Card, plan: MovePlan) -> None:
    if card.type.move != -1 or not isinstance(ctx.phase, int):
        return
    if ctx.decide(robot, order_key(SUBJECT, ctx.phase), False) is True:
        plan.squares += 1
        ctx.emit(robot, "option used", {"option": REVERSE_GEARS}, option=REVERSE_GEARS, card=str(card))


EFFECT = Effect(REVERSE_GEARS, "a Back Up may move 2 squares", hooks=(on("move.options", reverse),))
