"""Cards, hands and contexts for the order-language tests."""

from __future__ import annotations

from referee.engine import Card, parse_card
from referee.orders import OrderContext


def cards(*texts: str) -> list[Card]:
    return [parse_card(t) for t in texts]


#: a full hand of nine, as a turn mail lists it (positions 1-9)
HAND = cards("FWD2 670", "FWD1 500", "LF90 90", "RT90 80", "UTRN 10", "FWD1 520", "RVS1 430", "FWD3 800", "LF90 110")
FULL = OrderContext(hand=HAND)

#: a robot with 6 damage: three cards dealt, registers 4 and 5 locked
DAMAGED_HAND = cards("FWD3 790", "RT90 100", "FWD1 490")
DAMAGED = OrderContext(hand=DAMAGED_HAND, locked={4: parse_card("LF90 70"), 5: parse_card("UTRN 20")})


def program(*texts: str) -> list[Card]:
    return cards(*texts)
