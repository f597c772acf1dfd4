"""Circuit Breaker: a robot ending a turn with 3 or more damage starts the next turn powered down
(unless its player's standing order declines)."""

from __future__ import annotations

from ..context import TurnContext
from ..hooks import Effect
from ..option_deck import CIRCUIT_BREAKER
from ..option_orders import CIRCUIT_BREAKER as SUBJECT
from ..option_orders import order_key
from ..state import Robot

THRESHOLD = 3


def trip(ctx: TurnContext, robot: Robot) -> None:
    if robot.pos is None or robot.damage < THRESHOLD or robot.power_down_next:
        return
    if ctx.decide(robot, order_key(SUBJECT), True) is not False:
        robot.power_down_next = True
        ctx.emit(robot, "option used", {"option": CIRCUIT_BREAKER}, option=CIRCUIT_BREAKER)


EFFECT = Effect(CIRCUIT_BREAKER, "powers the robot down next turn at 3 or more damage",
                                steps={"end.circuit_breaker": trip})
