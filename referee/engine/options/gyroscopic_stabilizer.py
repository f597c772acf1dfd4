"""Gyroscopic Stabilizer: when the player turns it on (for the whole turn, before register 1), the robot
is not turned by gears or turning belts (nor any board element that turns robots)."""

from __future__ import annotations

from ..context import TurnContext
from ..hooks import Effect
from ..option_deck import GYROSCOPIC_STABILIZER
from ..option_orders import GYROSCOPE as SUBJECT
from ..option_orders import order_key
from ..state import Robot


def declare(ctx: TurnContext, robot: Robot) -> None:
    ctx.notes[f"gyroscope:{robot.name}"] = ctx.decide(robot, order_key(SUBJECT), False) is True


def steady(ctx: TurnContext, robot: Robot) -> bool:
    return bool(ctx.notes.get(f"gyroscope:{robot.name}"))


EFFECT = Effect(GYROSCOPIC_STABILIZER, "the board does not turn the robot when it is on",
                                steps={"start.options": declare}, steady=steady)
