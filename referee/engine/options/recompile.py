"""Recompile: once a turn, after the hand is dealt, the whole hand may be redealt for 1 damage.

The store deals the second hand (by mail: a second hand is mailed, the deadline unchanged); the
turn's RECOMPILE order tells the engine, which charges the damage when the turn starts.
"""

from __future__ import annotations

from ..context import TurnContext
from ..hooks import Effect
from ..option_deck import RECOMPILE
from ..option_orders import RECOMPILE as SUBJECT
from ..option_orders import order_key
from ..state import Robot


def charge(ctx: TurnContext, robot: Robot) -> None:
    if robot.pos is None or robot.powered_down:
        return
    if ctx.decide(robot, order_key(SUBJECT), False) is True:
        ctx.emit(robot, "option used", {"option": RECOMPILE}, option=RECOMPILE)
        ctx.damage(robot, 1, "recompile")


EFFECT = Effect(RECOMPILE, "the hand may be redealt for 1 damage", steps={"start.options": charge})
