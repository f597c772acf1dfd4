"""How to use an option card, told once when a robot gets it: one line, from the card's own declaration
(``referee.orders.option_lines.usage_lines``): what the card does, and how its order is written with an
example when it takes one."""

from __future__ import annotations

from functools import lru_cache

from ..orders.option_lines import usage_lines
from ..orders.options import card_named


@lru_cache(maxsize=64)
def card_line(card: str) -> str:
    """Option card ``card`` (a name as the deck spells it, or loosely) in one line: what it does, and how its
    order is written with an example when it takes one (``Brakes: a Move 1 may move nothing. Order: BRAKES
    <registers>, e.g. BRAKES 2.``); a card that works by itself says so."""
    name = card_named(card) or card
    usage = usage_lines(name)
    if not usage:
        return f"{name}: an option card; it works by itself."
    summary = (usage[0].split(": ", 1)[1] if ": " in usage[0] else usage[0]).rstrip(".")
    orders = [raw.strip()[len("order: "):].partition("   (")[0] for raw in usage[1:]
              if raw.strip().startswith("order: ")]
    examples = [raw.strip()[len("e.g. "):].split(", or ")[0] for raw in usage[1:] if raw.strip().startswith("e.g. ")]
    if not orders:
        return f"{name}: {summary}; it works by itself."
    return f"{name}: {summary}. Order: {' or '.join(orders)}" + (f", e.g. {examples[0]}." if examples else ".")
