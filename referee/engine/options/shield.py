"""Shield (some editions; in the deck by house rule ``option_shield``): in each register phase the first
damage from a robot's laser coming from the front is prevented."""

from __future__ import annotations

from .. import shown
from ..context import Hit, TurnContext
from ..geometry import opposite
from ..hooks import Effect
from ..option_cards import OptionCard
from ..state import Robot

shown.untold("absorbed", "the hits it stopped are not damage taken; the stage tables show the shield")

SHIELD = 'Shield'


def front(ctx: TurnContext, robot: Robot, hit: Hit) -> int:
    if (hit.amount <= 0 or hit.cause != "laser" or hit.source not in ctx.by_name
            or hit.direction != opposite(robot.facing)):
        return hit.amount
    key = f"shield:{robot.name}:{ctx.phase}"
    if key in ctx.notes:
        return hit.amount
    ctx.notes[key] = True
    ctx.emit(robot, "absorbed", {"amount": 1, "option": SHIELD}, option=SHIELD)
    return hit.amount - 1


EFFECT = Effect(SHIELD, "the first robot-laser damage from the front each phase is prevented",
                                guard=front)
CARD = OptionCard(EFFECT, rank=27, badge="SH", house_rule="option_shield")
