"""Superior Archive: re-entry without the usual 2 damage.

Like every option it is lost when the robot is destroyed; it still serves the re-entry that follows:
the robot carries the status ``superior archive`` until it re-enters, and re-enters undamaged.
"""

from __future__ import annotations

from .. import shown
from ..context import TurnContext
from ..hooks import Effect
from ..option_cards import OptionCard
from ..state import Robot

SUPERIOR_ARCHIVE = 'Superior Archive'

STATUS = "superior archive"
shown.status(STATUS, "re-enters undamaged (Superior Archive)", mark="SA")


def destroyed(ctx: TurnContext, robot: Robot) -> None:
    robot.statuses.add(STATUS)


def reentered(ctx: TurnContext, robot: Robot) -> None:
    if robot.pos is None:
        return
    robot.statuses.discard(STATUS)
    if robot.damage:
        robot.damage = 0
        ctx.emit(robot, "option used", {"option": SUPERIOR_ARCHIVE}, option=SUPERIOR_ARCHIVE)


EFFECT = Effect(SUPERIOR_ARCHIVE, "re-entry without the 2 damage", on_destroyed=destroyed)
PENDING = Effect(STATUS, "re-enters without damage", steps={"end.reentry": reentered})
CARD = OptionCard(EFFECT, rank=25, badge="SA", statuses=(PENDING,))
