"""How to use an option card, told in the mail after a robot gets it: what the card does in one line, and the
order lines it takes with an example, as the card declares them (``referee.orders.option_lines.usage_lines``).

Each line is ``ORDER`` or ``ORDER   (what it means)``: the templates show the order as code and the rest
beside it.
"""

from __future__ import annotations

from functools import lru_cache

from ..orders.option_lines import usage_lines
from ..orders.options import card_named

_SACRIFICE = "SACRIFICE ORDER: {card}   (which card goes first when one is given up instead of damage)"


@lru_cache(maxsize=64)
def card_help(card: str) -> tuple[str, list[str]]:
    """(what the card does in one line, the order lines it takes with an example) for option card ``card``
    (a name as the deck spells it, or loosely). A card that works by itself says so."""
    name = card_named(card) or card
    usage = usage_lines(name)
    if not usage:
        return "An option card.", [_SACRIFICE.format(card=name.upper())]
    summary = usage[0].split(": ", 1)[1] if ": " in usage[0] else usage[0]
    summary = summary[:1].upper() + summary[1:].rstrip(".") + "."
    lines: list[str] = []
    for raw in usage[1:]:
        text = raw.strip()
        if text.startswith("order: "):
            order, _, note = text[len("order: "):].partition("   (")
            lines.append(f"{order}   (how it is written{'; ' + note.rstrip(')') if note else ''})")
        elif text.startswith("e.g. "):
            lines += [f"{example}   (an example)" for example in text[len("e.g. "):].split(", or ")]
        elif text.startswith("no order"):
            lines.append("no order needed: it works by itself")
        elif lines:  # what the order acts on, the conditions it takes: said beside the last order line
            order, _, note = lines[-1].partition("   (")
            lines[-1] = f"{order}   ({note.rstrip(')')}; {text})"
    lines.append(_SACRIFICE.format(card=name.upper()))
    return summary, lines


@lru_cache(maxsize=64)
def card_line(card: str) -> str:
    """Option card ``card`` in one line, from the card's own declaration: what it does, and how its order is
    written with an example when it takes one (``Brakes: a Move 1 may move nothing. Order: BRAKES
    <registers>, e.g. BRAKES 2.``)."""
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
