"""Gyroscopic Stabilizer: when the player turns it on (for the whole turn, before register 1), the robot
is not turned by gears or turning belts (nor any board element that turns robots)."""

from __future__ import annotations

from ..context import TurnContext
from ..hooks import Effect
from ..option_cards import MailOrder, OptionCard
from ..option_orders import GYROSCOPE as SUBJECT
from ..option_orders import OptionOrder, order_key
from ..state import Robot

GYROSCOPIC_STABILIZER = 'Gyroscopic Stabilizer'


def declare(ctx: TurnContext, robot: Robot) -> None:
    ctx.notes[f"gyroscope:{robot.name}"] = ctx.decide(robot, order_key(SUBJECT), False) is True


def steady(ctx: TurnContext, robot: Robot) -> bool:
    return bool(ctx.notes.get(f"gyroscope:{robot.name}"))


EFFECT = Effect(GYROSCOPIC_STABILIZER, "the board does not turn the robot when it is on",
                                steps={"start.options": declare}, steady=steady)
ORDER = OptionOrder(GYROSCOPIC_STABILIZER, SUBJECT, ("turn", "standing"),
                    "bool: not turned by gears or turning belts this turn", False, "GYRO ON | GYRO OFF")
CARD = OptionCard(EFFECT, rank=13, badge="GS", order=ORDER,
                  mail=MailOrder("switch", ("GYRO", "GYROSCOPIC STABILIZER", "GYROSCOPIC STABILISER",
                                            "GYROSCOPE STABILIZER", "GYROSCOPE STABILISER", "GYRO STABILIZER",
                                            "GYRO STABILISER", "GYROSCOPIC", "GYROSCOPE", "STABILIZER",
                                            "STABILISER"), keeps="standing"))
