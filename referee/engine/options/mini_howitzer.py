"""Mini Howitzer: instead of the main laser, 1 damage and the target is pushed one square away (not
through walls; a robot behind is pushed along); 5 shots, then discarded.

A shot is used only when there is a target. The push comes in the last laser step, after the hits
of the laser step have landed.
"""

from __future__ import annotations

from ..context import TurnContext
from ..elements.lasers import away, push_later, weapon_target
from ..hooks import Effect
from ..option_cards import MailOrder, OptionCard
from ..state import Robot

MINI_HOWITZER = 'Mini Howitzer'

SHOTS = 5


def fire(ctx: TurnContext, robot: Robot, phase: int) -> None:
    target = weapon_target(ctx, robot, MINI_HOWITZER)
    if target is None:
        return
    ctx.hit_later(target, 1, robot.name, robot.facing)
    push_later(ctx, target, away(robot), robot.name)
    data = robot.option_data.setdefault(MINI_HOWITZER, {})
    data["shots"] = int(data.get("shots", 0)) + 1
    if data["shots"] >= SHOTS:
        ctx.lose_option(robot, MINI_HOWITZER, "option used up")


EFFECT = Effect(MINI_HOWITZER, "instead of the main laser: 1 damage and a push; 5 shots",
                                weapon=fire)
CARD = OptionCard(EFFECT, rank=16, badge="MH", mail=MailOrder("weapon", ("MINI HOWITZER", "HOWITZER")))
