"""Pressor Beam: instead of the main laser, the target is pushed one square away; no damage."""

from __future__ import annotations

from ..context import TurnContext
from ..elements.lasers import away, push_later, weapon_target
from ..hooks import Effect
from ..option_deck import PRESSOR_BEAM
from ..state import Robot


def fire(ctx: TurnContext, robot: Robot, phase: int) -> None:
    target = weapon_target(ctx, robot, PRESSOR_BEAM)
    if target is not None:
        push_later(ctx, target, away(robot), robot.name)


EFFECT = Effect(PRESSOR_BEAM, "instead of the main laser: the target is pushed away", weapon=fire)
