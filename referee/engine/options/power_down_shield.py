"""Power-Down Shield: while the robot is powered down, at most 1 damage from each of the four sides is
prevented in each register phase (damage from no side, such as a pit's or a crusher's, is not)."""

from __future__ import annotations

from ..context import Hit, TurnContext
from ..hooks import Effect
from ..option_cards import OptionCard
from ..state import Robot

POWER_DOWN_SHIELD = 'Power-Down Shield'


def shield(ctx: TurnContext, robot: Robot, hit: Hit) -> int:
    if not robot.powered_down or hit.direction is None or hit.amount <= 0:
        return hit.amount
    sides = ctx.notes.setdefault(f"power-down shield:{robot.name}:{ctx.phase}", set())
    if hit.direction in sides:
        return hit.amount
    sides.add(hit.direction)
    ctx.emit(robot, "absorbed", {"amount": 1, "option": POWER_DOWN_SHIELD}, option=POWER_DOWN_SHIELD)
    return hit.amount - 1


EFFECT = Effect(POWER_DOWN_SHIELD, "powered down, 1 damage from each side is prevented each phase",
                                guard=shield)
CARD = OptionCard(EFFECT, rank=17, badge="PS")
