"""Repeaters: a robot whose movement card moves it onto a repeater executes that card once more.

The repeat comes after the robots move segment, before the board elements: every robot whose card ended
on a repeater, and which still stands there, repeats it, in the cards' priority order; a repetition that
ends on another repeater makes another round. A card that left the robot where it started (blocked, or a
Move 0) is not repeated, so a robot pressed against a wall on a repeater does not repeat forever. Turn
cards, pushes and belts do not trigger it. House rule ``repeat_at_once`` (the reading of rules version 2):
the card is repeated at once, before the next robot's card.
"""

from __future__ import annotations

from .. import shown, timing
from ..card_moves import execute_card
from ..cards import Card
from ..context import TurnContext
from ..events import register_wording
from ..geometry import Square
from ..hooks import on
from ..kinds import Kind
from ..movement import MovePlan, after_moves
from ..state import Robot

# the steps of the timing table only this kind acts in, each right after the step named
timing.declare("move.repeaters", timing.STOP, "repeaters", after="move.puddles")


register_wording("repeats", "repeats {card}")
shown.untold("repeats", "the moves it made are told; the stage tables show the card")

#: ``ctx.notes`` keys: robot name -> (card, square where it ended) waiting for the next round; rounds run
PENDING, ROUNDS = "repeaters", "repeater rounds"
#: rounds in one phase at most (a repetition must move the robot, so only portals could make a ring)
MAX_ROUNDS = 50


def repeat(ctx: TurnContext, robot: Robot, card: Card, plan: MovePlan) -> None:
    if robot.pos == plan.start or card.type.move == 0:
        return
    if ctx.rules.repeat_at_once:
        ctx.flush_moves()
        ctx.emit(robot, "repeats", {"card": str(card)}, card=str(card))
        execute_card(ctx, robot, card)
        return
    ctx.notes.setdefault(PENDING, {})[robot.name] = (card, robot.pos)
    after_moves(ctx, PENDING, repeat_round)


def repeat_round(ctx: TurnContext) -> None:
    """One round: the robots still on the repeater their card ended on repeat it, highest priority first."""
    waiting: dict[str, tuple[Card, Square]] = ctx.notes.pop(PENDING, {})
    rounds = ctx.notes[ROUNDS] = ctx.notes.get(ROUNDS, 0) + 1
    if rounds > MAX_ROUNDS:
        del ctx.notes[ROUNDS]
        return
    for name, (card, square) in sorted(waiting.items(), key=lambda item: item[1][0].priority, reverse=True):
        robot = ctx.by_name[name]
        if robot.pos != square or robot.powered_down:
            continue
        ctx.emit(robot, "repeats", {"card": str(card)}, card=str(card))
        execute_card(ctx, robot, card)
    if PENDING not in ctx.notes:
        del ctx.notes[ROUNDS]


REPEATER = Kind(
    name="repeater",
    doc=('a robot whose movement card moves it onto a repeater executes the card once more after every robot '
         'has moved, in priority order (again on another repeater); a card that left the robot where it started '
         'is not repeated'),
    key='(2) repeater',
    summary="a robot whose movement card ends here executes it once more",
    group="floor",
    hooks=(on("move.repeaters", repeat),),
    glyph=lambda e: "(2)",
    rank=69,
)
