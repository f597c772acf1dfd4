"""Reverse Gears: a Back Up may move 2 squares back, in the registers the player names."""

from __future__ import annotations

from ..cards import Card
from ..context import TurnContext
from ..hooks import Effect, on
from ..movement import MovePlan
from ..option_cards import MailOrder, OptionCard
from ..option_orders import REVERSE_GEARS as SUBJECT
from ..option_orders import OptionOrder, order_key
from ..state import Robot

REVERSE_GEARS = 'Reverse Gears'


def reverse(ctx: TurnContext, robot: Robot, card: Card, plan: MovePlan) -> None:
    if card.type.move != -1 or not isinstance(ctx.phase, int):
        return
    if ctx.decide(robot, order_key(SUBJECT, ctx.phase), False) is True:
        plan.squares += 1
        ctx.emit(robot, "option used", {"option": REVERSE_GEARS}, option=REVERSE_GEARS, card=str(card))


EFFECT = Effect(REVERSE_GEARS, "a Back Up may move 2 squares", hooks=(on("move.options", reverse),))
ORDER = OptionOrder(REVERSE_GEARS, SUBJECT, ("register",), "True: this register's Back Up moves 2 squares",
                    False, "REVERSE GEARS 4")
CARD = OptionCard(EFFECT, rank=23, badge="RV", order=ORDER,
                  mail=MailOrder("registers", ("REVERSE GEARS", "REVERSE GEAR", "REVERSE"), acts_on=(-1,),
                                 rule="Reverse Gears acts on a Back Up"))
