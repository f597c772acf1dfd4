"""The orders board elements take (chop shops, reset sites): the contract with the order language.

An element that hands a player a choice asks ``ctx.decide(robot, element_key(SUBJECT, register),
default)``. The answer comes from this turn's orders (``Answers.orders[robot][key]``), else the default
below; there are no standing orders for them (a robot is on a chop shop or a reset site for a turn or
two, and the player knows it when writing). The mail side (``referee.orders.element_clauses``) reads
the clause named here into exactly that key and answer shape.
"""

from __future__ import annotations

from .decisions import DecisionKey
from .option_orders import OptionOrder

CHOP_SHOP = "chop shop"
RESET_EXCHANGE = "reset exchange"
RESET_CHOOSE = "reset choose"


#: the orders in the option cards' shape (:class:`~.option_orders.OptionOrder`), ``card`` naming the element kind
ORDERS: tuple[OptionOrder, ...] = (
    OptionOrder("chop_shop", CHOP_SHOP, ("turn",), '"option" (draw the top option card) or "none"', "option",
                "CHOP SHOP: OPTION | CHOP SHOP: NONE"),
    OptionOrder("reset_site", RESET_EXCHANGE, ("register",),
                'a card nobody holds ("FWD2 700") for the register after a phase ended on the site (2-5)', None,
                "RESET EXCHANGE 3: FWD2 700"),
    OptionOrder("reset_site", RESET_CHOOSE, ("turn",),
                'a card for the next hand ("FWD2 700"), "random" (five random cards next turn) or "none"', "none",
                "RESET CHOOSE: FWD2 700 | RESET CHOOSE: RANDOM | RESET CHOOSE: NONE"),
)

BY_SUBJECT: dict[str, OptionOrder] = {o.subject: o for o in ORDERS}


def element_key(subject: str, register: int | None = None) -> DecisionKey:
    """The decision key of an element's order (a register phase 1-5, or None for the turn)."""
    return DecisionKey(subject, register=register)
