"""Brakes: a Move 1 may move 0 squares (same priority), in the registers the player names."""

from __future__ import annotations

from ..cards import Card
from ..context import TurnContext
from ..hooks import Effect, on
from ..movement import MovePlan
from ..option_deck import BRAKES
from ..option_orders import BRAKES as SUBJECT
from ..option_orders import order_key
from ..state import Robot


def brake(ctx: TurnContext, robot: Robot, card: Card, plan: MovePlan) -> None:
    if card.type.move != 1 or not isinstance(ctx.phase, int):
        return
    if ctx.decide(robot, order_key(SUBJECT, ctx.phase), False) is True:
        plan.squares = 0
        ctx.emit(robot, "option used", {"option": BRAKES}, option=BRAKES, card=str(card))


EFFECT = Effect(BRAKES, "a Move 1 may move nothing", hooks=(on("move.options", brake),))
