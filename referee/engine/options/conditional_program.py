"""Conditional Program: a card from the unused hand is put on the option; in the register the order
names, it replaces the programmed card when the order's condition holds as the register is revealed.

Conditions (each may start with ``NOT``): ``FACING N|E|S|W``, ``AT r<row>c<col>``, ``ROBOT AHEAD`` (a
robot on the next square ahead, no wall between), ``WALL AHEAD`` (a wall on the side ahead),
``DAMAGE >= n``. A fused register keeps its card; a condition the engine cannot read is false.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..cards import CardError, parse_card
from ..context import TurnContext
from ..geometry import DC, DR, NotationError, parse_dir, parse_square
from ..hooks import Effect
from ..option_cards import MailOrder, OptionCard
from ..option_deck import CONDITIONAL_PROGRAM
from ..option_orders import CONDITIONAL as SUBJECT
from ..option_orders import OptionOrder, order_key
from ..state import Robot


def holds(ctx: TurnContext, robot: Robot, condition: str) -> bool | None:
    """Whether ``condition`` holds for ``robot`` now; None when it cannot be read."""
    words = condition.upper().split()
    if words[:1] == ["NOT"]:
        inner = holds(ctx, robot, " ".join(words[1:]))
        return None if inner is None else not inner
    pos = robot.pos
    assert pos is not None
    try:
        if len(words) == 2 and words[0] == "FACING":
            return robot.facing == parse_dir(words[1])
        if len(words) == 2 and words[0] == "AT":
            return pos == parse_square(words[1].lower())
        if words == ["WALL", "AHEAD"]:
            return (pos[0], pos[1], robot.facing) in ctx.board.blocked
        if words == ["ROBOT", "AHEAD"]:
            ahead = (pos[0] + DR[robot.facing], pos[1] + DC[robot.facing])
            return (pos[0], pos[1], robot.facing) not in ctx.board.blocked and bool(ctx.robots_at(ahead))
        if len(words) == 3 and words[:2] == ["DAMAGE", ">="]:
            return robot.damage >= int(words[2])
    except (NotationError, ValueError):
        return None
    return None


def _note(ctx: TurnContext, robot: Robot) -> Any:
    def note(answer: Any) -> str | None:
        if answer is None:
            return None
        if not isinstance(answer, Mapping) or "card" not in answer or "if" not in answer:
            return "not a conditional order: nothing replaced"
        return None
    return note


def reveal(ctx: TurnContext, robot: Robot, phase: int) -> None:
    order = ctx.decide(robot, order_key(SUBJECT, phase), None, _note(ctx, robot))
    if not isinstance(order, Mapping) or robot.name not in ctx.current or phase in robot.locked:
        return
    try:
        card = parse_card(order.get("card"))
    except CardError:
        return
    condition = str(order.get("if", ""))
    if holds(ctx, robot, condition):
        old = ctx.current[robot.name]
        ctx.current[robot.name] = card
        ctx.emit(robot, "card replaced", {"card": str(card)}, card=str(card), replaced=str(old),
                 option=CONDITIONAL_PROGRAM, condition=condition)


EFFECT = Effect(CONDITIONAL_PROGRAM, "a card kept aside replaces a register's card on a condition",
                                steps={"reveal.options": reveal})
ORDER = OptionOrder(CONDITIONAL_PROGRAM, SUBJECT, ("register",),
                    "dict {'card': str(Card) from the unused hand, 'if': condition text}; conditions: "
                    "'FACING N|E|S|W', 'AT r<row>c<col>', 'ROBOT AHEAD', 'WALL AHEAD', 'DAMAGE >= <n>', "
                    "each optionally preceded by 'NOT '", None,
                    "CONDITIONAL 4: U 50 IF ROBOT AHEAD")
CARD = OptionCard(EFFECT, rank=5, badge="CP", order=ORDER,
                  mail=MailOrder("register card if", ("CONDITIONAL", "CONDITIONAL PROGRAM", "COND PROGRAM", "COND")))
