"""What the store holds for a robot's open turn, as the order language sees it: the hand, locked
registers and options the orders are read with, and the program, standing orders and option orders
on file that the answers echo."""

from __future__ import annotations

from sqlalchemy.orm import Session

from ..engine import Card, Robot
from ..engine.option_orders import RECOMPILE
from ..orders import OrderContext, StandingOrders
from ..orders.language import DIRECTION_NAMES
from ..orders.rules import OnFile
from ..store.models import Player, Turn
from ..store.queries import active_orders, owes_program
from ..store.records import cards_of, hand_of, locked_of


def context(turn: Turn | None, player: Player, robot: Robot | None) -> OrderContext:
    """The robot's hand as mailed, its locked registers and its options, from the open turn."""
    if turn is None:
        return OrderContext()
    return OrderContext(hand=hand_of(turn, player.robot), locked=locked_of(turn, player.robot),
                        options=list(robot.options) if robot else [])


def on_file(s: Session, turn: Turn | None, player: Player) -> tuple[list[Card] | None, StandingOrders]:
    """The program on file (None: none yet) and the standing orders in force, as the echo shows them."""
    standing = StandingOrders.from_dict(player.standing_orders)
    if turn is None:
        return None, standing
    order = active_orders(s, turn).get(player.id)
    if order is None:
        return None, standing
    standing.power_down = order.power_down
    if order.reentry_facing:
        standing.reenter_facing = DIRECTION_NAMES.index(order.reentry_facing)
    program = cards_of(order.program) if order.program else []
    return ([c for c in program if c is not None] if program and None not in program else None), standing


def options_on_file(s: Session, turn: Turn | None, player: Player) -> dict[str, object]:
    """This turn's option orders on file for the player's robot (RECOMPILE once its second hand is dealt)."""
    if turn is None:
        return {}
    order = active_orders(s, turn).get(player.id)
    said = dict((order.extra or {}).get("turn_options") or {}) if order is not None else {}
    if player.robot in (turn.first_hands or {}):
        said[RECOMPILE] = True
    return said


def filed_state(s: Session, turn: Turn, player: Player, robot: Robot) -> OnFile:
    """What :mod:`referee.orders.rules` needs to know of the turn's order on file."""
    previous = active_orders(s, turn).get(player.id)
    return OnFile(turn=turn.number, owes=owes_program(turn, robot), has_order=previous is not None,
                  program=previous is not None and bool(previous.program),
                  turn_options=((previous.extra or {}).get("turn_options") or {}) if previous is not None else {},
                  standing=player.standing_orders or {})
