"""Ramming Gear: whenever the robot pushes or bumps into another robot while robots move (its own card,
or pushed on into a third robot), that robot takes 1 damage. Belts and pushers do not ram; a virtual
robot pushes nobody."""

from __future__ import annotations

from .. import shown
from ..context import TurnContext
from ..geometry import DC, DR
from ..hooks import Effect, on
from ..option_cards import OptionCard
from ..state import Robot

shown.cause("ramming gear", hit="{by}'s ramming gear")

RAMMING_GEAR = 'Ramming Gear'


def ram(ctx: TurnContext, robot: Robot, d: int) -> bool:
    pos = robot.pos
    if ctx.step != "robots" or robot.virtual or pos is None or (pos[0], pos[1], d) in ctx.board.blocked:
        return True
    other = ctx.real_robot_at((pos[0] + DR[d], pos[1] + DC[d]), exclude=robot)
    if other is not None:
        ctx.damage(other, 1, "ramming gear", robot.name, d)
    return True


EFFECT = Effect(RAMMING_GEAR, "a robot pushed or bumped takes 1 damage",
                                hooks=(on("move.pushes", ram),))
CARD = OptionCard(EFFECT, rank=20, badge="RG")
