"""Dual Processor: a turn card from the hand shares a register with its move card: a Move 2 with a
90-degree turn, a Move 3 with a U-turn. By default the move runs first, then the turn; house rule
``dual_processor = "turn first"`` turns before moving.
"""

from __future__ import annotations

from ..card_moves import rotate
from ..cards import Card, CardError, parse_card
from ..context import TurnContext
from ..hooks import Effect, on
from ..movement import MovePlan
from ..option_cards import MailOrder, OptionCard
from ..option_deck import DUAL_PROCESSOR
from ..option_orders import DUAL_PROCESSOR as SUBJECT
from ..option_orders import OptionOrder, order_key
from ..programs import dual_pair_ok
from ..state import Robot


def _paired(ctx: TurnContext, robot: Robot, card: Card, first: str) -> Card | None:
    if card.type.move not in (2, 3) or not isinstance(ctx.phase, int) or ctx.rules.dual_processor != first:
        return None
    answer = ctx.decide(robot, order_key(SUBJECT, ctx.phase), None,
                        lambda a: None if a is None or _pair(card, a) else f"{a!r} cannot pair with {card}")
    return _pair(card, answer) if answer is not None else None


def _pair(card: Card, answer: object) -> Card | None:
    try:
        turn = parse_card(answer)
    except CardError:
        return None
    return turn if dual_pair_ok(card, turn) else None


def turn_after(ctx: TurnContext, robot: Robot, card: Card, plan: MovePlan) -> None:
    turn = _paired(ctx, robot, card, "move first")
    if turn is not None and robot.pos is not None:
        rotate(ctx, robot, turn.type.turn, turn)


def turn_before(ctx: TurnContext, robot: Robot, card: Card, plan: MovePlan) -> None:
    turn = _paired(ctx, robot, card, "turn first")
    if turn is not None:
        rotate(ctx, robot, turn.type.turn, turn)
        plan.direction = robot.facing


EFFECT = Effect(DUAL_PROCESSOR, "a move card and a turn card share a register",
                                hooks=(on("move.options", turn_before), on("move.dual_processor", turn_after)))
ORDER = OptionOrder(DUAL_PROCESSOR, SUBJECT, ("register",),
                    "str(Card): a turn card from the hand shared with this register's move card "
                    "(Move 2 + a 90-degree turn, Move 3 + a U-turn; move first, then turn)", None,
                    "DUAL 3: R 80")
CARD = OptionCard(EFFECT, rank=8, badge="DP", order=ORDER,
                  mail=MailOrder("register card", ("DUAL", "DUAL PROCESSOR"), acts_on=(2, 3), card_kind="turn",
                                 rule="Dual Processor pairs a Move 2 with a 90-degree turn or a Move 3 with a U-turn"))
