"""Brakes: a Move 1 may move 0 squares (same priority), in the registers the player names."""

from __future__ import annotations

from .. import shown
from ..cards import Card
from ..context import TurnContext
from ..hooks import Effect, on
from ..movement import MovePlan
from ..option_cards import MailOrder, OptionCard
from ..option_orders import BRAKES as SUBJECT
from ..option_orders import OptionOrder, order_key
from ..state import Robot

shown.untold("option used", "the moves it made are told; the stage tables show the option used")

BRAKES = 'Brakes'


def brake(ctx: TurnContext, robot: Robot, card: Card, plan: MovePlan) -> None:
    if card.type.move != 1 or not isinstance(ctx.phase, int):
        return
    if ctx.decide(robot, order_key(SUBJECT, ctx.phase), False) is True:
        plan.squares = 0
        ctx.emit(robot, "option used", {"option": BRAKES}, option=BRAKES, card=str(card))


EFFECT = Effect(BRAKES, "a Move 1 may move nothing", hooks=(on("move.options", brake),))
ORDER = OptionOrder(BRAKES, SUBJECT, ("register",), "True: this register's Move 1 moves 0 squares", False,
                    "BRAKES 2 | BRAKES 2, 4")
CARD = OptionCard(EFFECT, rank=3, badge="BR", order=ORDER,
                  mail=MailOrder("registers", ("BRAKES", "BRAKE"), acts_on=(1,), rule="Brakes acts on a Move 1"))
