"""Pressor Beam: instead of the main laser, the target is pushed one square away; no damage."""

from __future__ import annotations

from ..context import TurnContext
from ..elements.lasers import away, push_later, weapon_target
from ..hooks import Effect
from ..option_cards import MailOrder, OptionCard
from ..state import Robot

PRESSOR_BEAM = 'Pressor Beam'


def fire(ctx: TurnContext, robot: Robot, phase: int) -> None:
    target = weapon_target(ctx, robot, PRESSOR_BEAM)
    if target is not None:
        push_later(ctx, target, away(robot), robot.name)


EFFECT = Effect(PRESSOR_BEAM, "instead of the main laser: the target is pushed away", weapon=fire)
CARD = OptionCard(EFFECT, rank=18, badge="PB", mail=MailOrder("weapon", ("PRESSOR BEAM", "PRESSOR")))
