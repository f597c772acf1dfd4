"""Repeaters: a robot whose movement card moves it onto a repeater executes that card once more, at
once; ending on another repeater that way repeats it again.

A card that left the robot where it started (blocked, or a Move 0) is not repeated, so a robot
pressed against a wall on a repeater does not repeat forever. Turn cards, pushes and belts do not
trigger it.
"""

from __future__ import annotations

from .. import timing
from ..cards import Card
from ..context import TurnContext
from ..events import register_wording
from ..hooks import on
from ..kinds import Kind
from ..movement import MovePlan, execute_card
from ..state import Robot

# the steps of the timing table only this kind acts in, each right after the step named
timing.declare("move.repeaters", timing.STOP, "repeaters", after="move.puddles")


register_wording("repeats", "repeats {card}")


def repeat(ctx: TurnContext, robot: Robot, card: Card, plan: MovePlan) -> None:
    if robot.pos == plan.start or card.type.move == 0:
        return
    ctx.flush_moves()
    ctx.emit(robot, "repeats", {"card": str(card)}, card=str(card))
    execute_card(ctx, robot, card)


REPEATER = Kind(
    name="repeater",
    doc=('a robot whose movement card moves it onto a repeater executes the card once more at once (again on '
         'another repeater); a card that left the robot where it started is not repeated'),
    key='(2) repeater',
    summary="a robot whose movement card ends here executes it once more",
    group="floor",
    hooks=(on("move.repeaters", repeat),),
    glyph=lambda e: "(2)",
    rank=69,
)
