"""Abort Switch: once a turn, when a register is revealed, its card may be replaced by the deck's top
card; every later register of that turn is then replaced the same way.

The order names the register (0: never). The "deck's top card" is drawn from the cards nobody holds
with the turn's generator, as randomizers draw. A fused register keeps its card.
"""

from __future__ import annotations

from ..context import TurnContext
from ..hooks import Effect
from ..option_cards import MailOrder, OptionCard
from ..option_orders import ABORT_SWITCH as SUBJECT
from ..option_orders import OptionOrder, order_key
from ..state import Robot

ABORT_SWITCH = 'Abort Switch'


def abort(ctx: TurnContext, robot: Robot, phase: int) -> None:
    key = f"abort switch:{robot.name}"
    if key not in ctx.notes:
        ctx.notes[key] = ctx.decide(robot, order_key(SUBJECT), 0)
    start = ctx.notes[key]
    if not isinstance(start, int) or isinstance(start, bool) or not 1 <= start <= phase:
        return
    old = ctx.current.get(robot.name)
    if old is None or phase in robot.locked or not ctx.undealt:
        return
    card = ctx.undealt.pop(ctx.rng.randrange(len(ctx.undealt)))
    ctx.current[robot.name] = card
    ctx.emit(robot, "card replaced", {"card": str(card)}, card=str(card), replaced=str(old), option=ABORT_SWITCH)


EFFECT = Effect(ABORT_SWITCH, "from a chosen register on, cards are replaced by the deck's top card",
                                steps={"reveal.options": abort})
ORDER = OptionOrder(ABORT_SWITCH, SUBJECT, ("turn", "standing"),
                    "int: the register (1-5) whose revealed card is replaced, 0 for never", 0,
                    "ABORT 3 | ABORT NEVER")
CARD = OptionCard(EFFECT, rank=2, badge="AS", order=ORDER,
                  mail=MailOrder("register or never", ("ABORT", "ABORT SWITCH"), keeps="turn"))
