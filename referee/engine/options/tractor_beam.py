"""Tractor Beam: instead of the main laser, a target not adjacent is pulled one square toward the
robot; no damage. An adjacent target is not moved."""

from __future__ import annotations

from ..context import TurnContext
from ..elements.lasers import push_later, toward, weapon_target
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


EFFECT = Effect(TRACTOR_BEAM, "instead of the main laser: a target not adjacent is pulled closer",
                                weapon=fire)
CARD = OptionCard(EFFECT, rank=26, badge="TB", mail=MailOrder("weapon", ("TRACTOR BEAM", "TRACTOR")))
