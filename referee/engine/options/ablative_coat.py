"""Ablative Coat: takes the next 3 points of damage in the robot's place, then is discarded."""

from __future__ import annotations

from .. import shown
from ..context import Hit, TurnContext
from ..hooks import Effect
from ..option_cards import OptionCard
from ..state import Robot

shown.untold("option used up", "what it held is in the stage tables' options row")

ABLATIVE_COAT = 'Ablative Coat'

CAPACITY = 3


def absorb(ctx: TurnContext, robot: Robot, hit: Hit) -> int:
    data = robot.option_data.setdefault(ABLATIVE_COAT, {})
    taken = min(hit.amount, CAPACITY - int(data.get("absorbed", 0)))
    if taken <= 0:
        return hit.amount
    data["absorbed"] = int(data.get("absorbed", 0)) + taken
    ctx.emit(robot, "absorbed", {"amount": taken, "option": ABLATIVE_COAT}, option=ABLATIVE_COAT)
    if data["absorbed"] >= CAPACITY:
        ctx.lose_option(robot, ABLATIVE_COAT, "option used up")
    return hit.amount - taken


EFFECT = Effect(ABLATIVE_COAT, "takes the next 3 points of damage, then is discarded",
                                guard=absorb)
CARD = OptionCard(EFFECT, rank=1, badge="AC")
