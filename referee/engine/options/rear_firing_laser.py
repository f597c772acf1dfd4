"""Rear-Firing Laser: a second main laser pointing backwards, with the same rules (other options that
change the main laser change it too; a weapon fired instead of the main laser replaces the front one only)."""

from __future__ import annotations

from ..context import TurnContext
from ..elements.lasers import Shot
from ..geometry import opposite
from ..hooks import Effect
from ..option_cards import OptionCard
from ..state import Robot

REAR_FIRING_LASER = 'Rear-Firing Laser'


def aim(ctx: TurnContext, robot: Robot, shot: Shot) -> None:
    shot.directions.append(opposite(robot.facing))


EFFECT = Effect(REAR_FIRING_LASER, "a second main laser fires backwards", aim=aim)
CARD = OptionCard(EFFECT, rank=21, badge="RL")
