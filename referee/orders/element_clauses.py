"""Orders for the choices board elements hand a player: chop shops and reset sites.

Each clause reads into the shapes of :mod:`referee.engine.element_orders`, for this turn only:

* ``CHOP SHOP: OPTION`` (also ``TAKE``, ``YES``) or ``CHOP SHOP: NONE`` (``NO``, ``DECLINE``, ``SKIP``):
  whether a robot ending the turn on a chop shop draws an option card;
* ``RESET EXCHANGE 3: FWD2 700`` (``RESET 3: FWD2 700``, ``RESET EXCHANGE REGISTER 3 FWD2 700``): the
  card that replaces register 3 when the robot ends phase 2 on a reset site (registers 2-5);
* ``RESET CHOOSE: FWD2 700``, ``RESET CHOOSE: RANDOM``, ``RESET CHOOSE: NONE``: a robot ending the turn
  on a reset site takes that card into its next hand, five random cards for its next program, or an
  ordinary hand.

A card is written with its type and priority (``FWD2 700``) or by its priority alone (``700``: no two
cards share one). The cards are not taken from the hand: an exchange or a choice names a card nobody
holds, which the engine checks when it asks.
"""

from __future__ import annotations

import re
from typing import Any

from referee.engine.cards import BY_PRIORITY, Card, CardError, parse_card
from referee.engine.element_orders import BY_SUBJECT, CHOP_SHOP, RESET_CHOOSE, RESET_EXCHANGE

from .options import OptionBad, OptionClause

_SEP = r"\s*(?:[:=-]\s*|\s)\s*"
_CHOP = re.compile(r"^CHOP[\s-]*SHOPS?" + _SEP + r"(\S.*?)\.?$")
_EXCHANGE = re.compile(r"^RESET(?:\s+(?:EXCHANGE|SWAP|SITE))?\s+(?:(?:REGISTER|REG|PHASE)\s*)?([1-5])" + _SEP
                       + r"(\S.*?)\.?$")
_CHOOSE = re.compile(r"^RESET\s+(?:CHOOSE|CHOICE|PICK)" + _SEP + r"(\S.*?)\.?$")
_TAKE = {"OPTION", "TAKE", "YES", "TAKE OPTION", "TAKE AN OPTION", "DRAW"}
_DECLINE = {"NONE", "NO", "DECLINE", "SKIP", "NOTHING", "NO OPTION"}
#: lines led by these words are element orders, or an error saying how to write one
LEADS = ("CHOP", "RESET")


def read_element_clause(text: str) -> OptionClause | None:
    """The element order a normalized (upper-case) line gives; None when the line is no element order.

    Raises :class:`OptionBad` (with how to write it) for a line that starts like one but is written wrongly.
    """
    m = _CHOP.match(text)
    if m:
        word = m.group(1).strip()
        if word in _TAKE:
            return OptionClause(CHOP_SHOP, "option")
        if word in _DECLINE:
            return OptionClause(CHOP_SHOP, "none")
        raise OptionBad(f"{word!r} is no chop shop answer: write {BY_SUBJECT[CHOP_SHOP].clause}")
    m = _CHOOSE.match(text)
    if m:
        word = m.group(1).strip()
        if word in ("RANDOM", "FIVE RANDOM", "5 RANDOM", "FIVE RANDOM CARDS", "5 RANDOM CARDS"):
            return OptionClause(RESET_CHOOSE, "random")
        if word in ("NONE", "NOTHING", "NO"):
            return OptionClause(RESET_CHOOSE, "none")
        return OptionClause(RESET_CHOOSE, str(_card(word, BY_SUBJECT[RESET_CHOOSE].clause)))
    m = _EXCHANGE.match(text)
    if m:
        register = int(m.group(1))
        if register == 1:
            raise OptionBad("a reset site exchanges registers 2-5 (the register after a phase on the site)")
        value: Any = str(_card(m.group(2).strip(), BY_SUBJECT[RESET_EXCHANGE].clause))
        return OptionClause(RESET_EXCHANGE, None, registers={register: value})
    first = text.split()[0].strip(":=") if text.split() else ""
    if first in LEADS and not _prose(text):
        how = BY_SUBJECT[CHOP_SHOP if first == "CHOP" else RESET_CHOOSE].clause
        raise OptionBad(f"this {first.lower()} order is not written as the referee reads it: write e.g. {how}"
                        + ("" if first == "CHOP" else f", or {BY_SUBJECT[RESET_EXCHANGE].clause}"))
    return None


def _prose(text: str) -> bool:
    """A sentence that merely starts with the word ("Reset the game when you can.")."""
    return len(text.split()) > 6


def _card(text: str, how: str) -> Card:
    try:
        return parse_card(text)
    except CardError:
        m = re.fullmatch(r"P?(\d{2,3})", text)
        found = BY_PRIORITY.get(int(m.group(1))) if m else None
        if found is None:
            raise OptionBad(f"{text!r} is not a card (write it like FWD2 700, type and priority): {how}") from None
        return found


def element_line(subject: str, value: Any, register: int | None) -> str:
    """An element order written back in the order language (for echoes); "" for another subject."""
    if subject == CHOP_SHOP:
        return f"CHOP SHOP: {str(value).upper()}"
    if subject == RESET_CHOOSE:
        return f"RESET CHOOSE: {str(value).upper()}"
    if subject == RESET_EXCHANGE and register is not None:
        return f"RESET EXCHANGE {register}: {value}"
    return ""
