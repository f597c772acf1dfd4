"""Tractor Beam: instead of the main laser, a target not adjacent is pulled one square toward the
robot; no damage. An adjacent target cannot be pulled: the main laser fires at it instead."""

from __future__ import annotations

from ..context import TurnContext
from ..elements.lasers import front_target, push_later, toward, weapon_target
from ..hooks import Effect
from ..option_cards import MailOrder, OptionCard
from ..state import Robot

TRACTOR_BEAM = 'Tractor Beam'


def fire(ctx: TurnContext, robot: Robot, phase: int) -> None:
    target = weapon_target(ctx, robot, TRACTOR_BEAM)
    if target is None or robot.pos is None or target.pos is None:
        return
    if abs(target.pos[0] - robot.pos[0]) + abs(target.pos[1] - robot.pos[1]) > 1:
        push_later(ctx, target, toward(robot), robot.name)


def unable(ctx: TurnContext, robot: Robot, phase: int) -> str | None:
    """An adjacent target cannot be pulled closer (the main laser then fires)."""
    target = front_target(ctx, robot)
    if target is None or robot.pos is None or target.pos is None:
        return None
    if abs(target.pos[0] - robot.pos[0]) + abs(target.pos[1] - robot.pos[1]) <= 1:
        return f"{TRACTOR_BEAM} cannot pull {target.name}, already adjacent"
    return None


EFFECT = Effect(TRACTOR_BEAM, "instead of the main laser: a target not adjacent is pulled closer",
                weapon=fire,
                unable=unable)
CARD = OptionCard(EFFECT, rank=26, badge="TB", mail=MailOrder("weapon", ("TRACTOR BEAM", "TRACTOR")))
