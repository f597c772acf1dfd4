"""How to use an option card, told in the mail after a robot gets it: what the card does in one line, and the
order lines it takes with an example.

:func:`card_help` is the one place the mail asks. For now it is made from what the project has today: the
summary from the first sentence of the card's engine module docstring (``referee/engine/options/*.py``), the
order lines from the clauses of :data:`referee.engine.option_orders.ORDERS` (what the order language reads;
docs/orders.md's table) and the weapons' ``FIRE`` order. A per-card declaration with its summary and usage
lines (``usage_lines(card)`` in ``referee/orders/options.py``) is to replace both: then this function only
calls it.
"""

from __future__ import annotations

import importlib
import re
from functools import lru_cache

from ..engine.option_orders import ORDERS, WEAPONS
from ..orders.options import CARD_NAMES, card_named

#: what each order clause does, in a few words, by card (the clause itself comes from ORDERS)
_DOES: dict[str, str] = {
    "Abort Switch": "from register 3 on, the revealed cards are replaced from the deck (ABORT NEVER: off)",
    "Brakes": "that register's Move 1 moves no square",
    "Circuit Breaker": "OFF declines its power down at 3 or more damage; ON again takes it",
    "Conditional Program": "an unused card of your hand replaces register 4's card when the condition holds",
    "Crab Legs": "that register's Move 1 goes one square sideways",
    "Dual Processor": "a turn card from your hand shares register 3 with its move card",
    "Fire Control": "a main-laser hit takes an option (or fuses a register) instead of doing damage",
    "Flywheel": "an unused card of your hand is kept on the option for later turns",
    "Fourth Gear": "that register's Move 3 moves four squares",
    "Gyroscopic Stabilizer": "not turned by gears or turning belts (ON THIS TURN: one turn only)",
    "Recompile": "alone in a mail: your hand is dealt again, for 1 damage",
    "Reverse Gears": "that register's Back Up moves two squares",
}
#: the order of a weapon card: fired instead of the main laser in the registers named
_FIRE = "FIRE 3: {word}"
_SACRIFICE = "SACRIFICE ORDER: {card}"


def _module(card: str) -> str:
    return re.sub(r"[^a-z]+", "_", card.lower()).strip("_")


@lru_cache(maxsize=64)
def _summary(card: str) -> str:
    """The first sentence of the card's engine module docstring, without its name in front."""
    try:
        doc = importlib.import_module(f"referee.engine.options.{_module(card)}").__doc__ or ""
    except ImportError:
        doc = ""
    text = " ".join(doc.split())
    text = re.sub(rf"^{re.escape(card)}\s*(\([^)]*\))?\s*:\s*", "", text, flags=re.I)
    text = re.sub(r"\s*\([^()]*`[^()]*\)", "", text)  # asides for programmers: (:func:`...`), (house rule ``x``)
    first = _first_sentence(text).rstrip(".;")
    return (first[:1].upper() + first[1:] + ".") if first else "An option card."


def _first_sentence(text: str) -> str:
    """Up to the first full stop or semicolon outside parentheses."""
    depth = 0
    for i, ch in enumerate(text):
        depth += (ch == "(") - (ch == ")")
        if depth == 0 and ch in ".;" and (i + 1 == len(text) or text[i + 1] == " "):
            return text[:i]
    return text


@lru_cache(maxsize=64)
def card_help(card: str) -> tuple[str, list[str]]:
    """(what the card does in one line, the order lines it takes with an example) for option card ``card``
    (a name as the deck spells it, or loosely). A card that works by itself says so."""
    name = card_named(card, CARD_NAMES) or card
    lines: list[str] = []
    for order in ORDERS:
        if order.card != name:
            continue
        for clause in order.clause.split(" | "):
            lines.append(f"{clause}   ({_DOES[name]})" if name in _DOES and not lines else clause)
    if name in WEAPONS:
        word = name.split()[0].upper()
        lines.append(_FIRE.format(word=word) + f"   (the {name} fires instead of the main laser in register 3; "
                     f"FIRE 2, 4: {word} for two registers)")
    if not lines:
        lines.append("no order needed: it works by itself")
    lines.append(_SACRIFICE.format(card=name.upper()) + "   (which card goes first when one is given up "
                 "instead of damage)")
    return _summary(name), lines
