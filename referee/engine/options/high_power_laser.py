"""High-Power Laser: the main laser passes through up to one wall or one robot; a robot passed through
is hit too."""

from __future__ import annotations

from ..context import TurnContext
from ..elements.lasers import Shot
from ..hooks import Effect
from ..option_cards import OptionCard
from ..state import Robot

HIGH_POWER_LASER = 'High-Power Laser'


def aim(ctx: TurnContext, robot: Robot, shot: Shot) -> None:
    shot.pierce = 1
    shot.by.append(HIGH_POWER_LASER)


EFFECT = Effect(HIGH_POWER_LASER, "the main laser passes through one wall or robot", aim=aim)
CARD = OptionCard(EFFECT, rank=14, badge="HP")
