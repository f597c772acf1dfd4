"""Fourth Gear: a Move 3 may move 4 squares, in the registers the player names."""

from __future__ import annotations

from ..cards import Card
from ..context import TurnContext
from ..hooks import Effect, on
from ..movement import MovePlan
from ..option_cards import MailOrder, OptionCard
from ..option_orders import FOURTH_GEAR as SUBJECT
from ..option_orders import OptionOrder, order_key
from ..state import Robot

FOURTH_GEAR = 'Fourth Gear'


def shift(ctx: TurnContext, robot: Robot, card: Card, plan: MovePlan) -> None:
    if card.type.move != 3 or not isinstance(ctx.phase, int):
        return
    if ctx.decide(robot, order_key(SUBJECT, ctx.phase), False) is True:
        plan.squares += 1
        ctx.emit(robot, "option used", {"option": FOURTH_GEAR}, option=FOURTH_GEAR, card=str(card))


EFFECT = Effect(FOURTH_GEAR, "a Move 3 may move 4 squares", hooks=(on("move.options", shift),))
ORDER = OptionOrder(FOURTH_GEAR, SUBJECT, ("register",), "True: this register's Move 3 moves 4 squares", False,
                    "FOURTH GEAR 3")
CARD = OptionCard(EFFECT, rank=12, badge="4G", order=ORDER,
                  mail=MailOrder("registers", ("FOURTH GEAR", "4TH GEAR", "FOURTH", "4TH"), acts_on=(3,),
                                 rule="Fourth Gear acts on a Move 3"))
