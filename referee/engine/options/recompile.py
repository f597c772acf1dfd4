"""Recompile: once a turn, after the hand is dealt, the whole hand may be redealt for 1 damage.

The store deals the second hand (by mail: a second hand is mailed, the deadline unchanged); the
turn's RECOMPILE order tells the engine, which charges the damage when the turn starts.
"""

from __future__ import annotations

from .. import shown
from ..context import TurnContext
from ..hooks import Effect
from ..option_cards import MailOrder, OptionCard
from ..option_orders import RECOMPILE as SUBJECT
from ..option_orders import OptionOrder, order_key
from ..state import Robot

shown.cause("recompile")

RECOMPILE = 'Recompile'


def charge(ctx: TurnContext, robot: Robot) -> None:
    if robot.pos is None or robot.powered_down:
        return
    if ctx.decide(robot, order_key(SUBJECT), False) is True:
        ctx.emit(robot, "option used", {"option": RECOMPILE}, option=RECOMPILE)
        ctx.damage(robot, 1, "recompile")


EFFECT = Effect(RECOMPILE, "the hand may be redealt for 1 damage", steps={"start.options": charge})
ORDER = OptionOrder(RECOMPILE, SUBJECT, ("turn",),
                    "True: the hand was redealt this turn (the store deals; the engine charges 1 damage)", False,
                    "RECOMPILE")
CARD = OptionCard(EFFECT, rank=22, badge="RE", order=ORDER, mail=MailOrder("flag", ("RECOMPILE", "RE COMPILE")))
