"""Crab Legs: a Move 1 may move one square left or right instead of forward (the facing is kept)."""

from __future__ import annotations

from ..cards import Card
from ..context import TurnContext
from ..hooks import Effect, on
from ..movement import MovePlan
from ..option_cards import MailOrder, OptionCard
from ..option_orders import CRAB_LEGS as SUBJECT
from ..option_orders import OptionOrder, order_key
from ..state import Robot

CRAB_LEGS = 'Crab Legs'

SIDES = {"left": 3, "right": 1}


def sidestep(ctx: TurnContext, robot: Robot, card: Card, plan: MovePlan) -> None:
    if card.type.move != 1 or not isinstance(ctx.phase, int):
        return
    side = ctx.decide(robot, order_key(SUBJECT, ctx.phase), None)
    turn = SIDES.get(str(side).lower()) if side is not None else None
    if turn is not None:
        plan.direction = (robot.facing + turn) % 4
        ctx.emit(robot, "option used", {"option": CRAB_LEGS}, option=CRAB_LEGS, card=str(card), side=str(side).lower())


EFFECT = Effect(CRAB_LEGS, "a Move 1 may go one square sideways",
                                hooks=(on("move.options", sidestep),))
ORDER = OptionOrder(CRAB_LEGS, SUBJECT, ("register",), "'left' or 'right': this register's Move 1 goes sideways",
                    None, "CRAB 2: LEFT")
CARD = OptionCard(EFFECT, rank=6, badge="CL", order=ORDER,
                  mail=MailOrder("choice", ("CRAB", "CRAB LEGS"), acts_on=(1,), rule="Crab Legs acts on a Move 1",
                                 choices=(("left", ("LEFT", "L")), ("right", ("RIGHT", "R")))))
