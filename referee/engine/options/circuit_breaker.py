"""Circuit Breaker: a robot ending a turn with 3 or more damage starts the next turn powered down
(unless its player's standing order declines)."""

from __future__ import annotations

from ..context import TurnContext
from ..hooks import Effect
from ..option_cards import MailOrder, OptionCard
from ..option_orders import CIRCUIT_BREAKER as SUBJECT
from ..option_orders import OptionOrder, order_key
from ..state import Robot

CIRCUIT_BREAKER = 'Circuit Breaker'

THRESHOLD = 3


def trip(ctx: TurnContext, robot: Robot) -> None:
    if robot.pos is None or robot.damage < THRESHOLD or robot.power_down_next:
        return
    if ctx.decide(robot, order_key(SUBJECT), True) is not False:
        robot.power_down_next = True
        ctx.emit(robot, "option used", {"option": CIRCUIT_BREAKER}, option=CIRCUIT_BREAKER)


EFFECT = Effect(CIRCUIT_BREAKER, "powers the robot down next turn at 3 or more damage",
                                steps={"end.circuit_breaker": trip})
ORDER = OptionOrder(CIRCUIT_BREAKER, SUBJECT, ("standing",),
                    "bool: power down next turn at 3+ damage (False declines)", True,
                    "CIRCUIT BREAKER ON | CIRCUIT BREAKER OFF")
CARD = OptionCard(EFFECT, rank=4, badge="CB", order=ORDER,
                  mail=MailOrder("switch", ("CIRCUIT BREAKER", "CIRCUIT", "BREAKER"), keeps="always standing"))
