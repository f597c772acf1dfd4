"""Double-Barreled Laser: the main laser deals 2 damage instead of 1 (the rear laser too)."""

from __future__ import annotations

from ..context import TurnContext
from ..elements.lasers import Shot
from ..hooks import Effect
from ..option_cards import OptionCard
from ..state import Robot

DOUBLE_BARRELED_LASER = 'Double-Barreled Laser'


def aim(ctx: TurnContext, robot: Robot, shot: Shot) -> None:
    shot.damage = 2
    shot.by.append(DOUBLE_BARRELED_LASER)


EFFECT = Effect(DOUBLE_BARRELED_LASER, "the main laser deals 2 damage", aim=aim)
CARD = OptionCard(EFFECT, rank=7, badge="DB")
