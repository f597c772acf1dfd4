"""Option orders written back in the order language: the echo's and the order form's lines, the usage a player
is shown for a card, and the option table of docs/orders.md, all from the cards' declarations."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from referee.engine.decisions import MAIN_LASER
from referee.engine.option_cards import CARDS, OptionCard, cards
from referee.engine.option_orders import BY_SUBJECT, SACRIFICE_ORDER

from .options import CONDITIONS, card_of_subject, declared_card, holds, norm, ordered_cards, weapons_held


# writing back ----------------------------------------------------------------------------------
def _mail_of(subject: str) -> OptionCard | None:
    name = card_of_subject().get(subject)
    card = CARDS.get(name) if name else None
    return card if card is not None and card.mail is not None else None


def order_lines(orders: Mapping[str, Any], *, standing: bool = False,
                other: Callable[[str, Any, int | None], str] | None = None) -> list[str]:
    """Option orders written back in the order language (for echoes and order forms); ``other`` writes the
    orders of subjects no card has (board elements' choices: ``orders.element_clauses.element_line``)."""
    lines: list[str] = []
    for subject, value in sorted(orders.items()):
        card = _mail_of(subject)
        if card is not None and card.mail is not None and card.mail.shape == "registers" \
                and isinstance(value, Mapping):
            regs = sorted(int(reg) for reg, answer in value.items() if answer)   # BRAKES 1, 4
            lines.append(f"{card.mail.words[0]} {', '.join(map(str, regs))}" if regs else "")
            continue
        if isinstance(value, Mapping):   # per register: {"2": answer}
            lines += [_line(subject, answer, int(reg), other) for reg, answer in sorted(value.items())]
            continue
        lines.append(_line(subject, value, None, other, standing=standing))
    return [line for line in lines if line]


def _line(subject: str, value: Any, reg: int | None, other: Callable[[str, Any, int | None], str] | None, *,
          standing: bool = False) -> str:
    if subject == SACRIFICE_ORDER:
        return "SACRIFICE ORDER: " + ", ".join(str(v).upper() for v in value or [])
    card = _mail_of(subject)
    if card is None or card.mail is None:
        return other(subject, value, reg) if other is not None else ""
    mail = card.mail
    word, shape = mail.words[0], mail.shape
    tail = " EVERY TURN" if standing and mail.keeps == "turn" else \
        " THIS TURN" if not standing and mail.keeps == "standing" and reg is None else ""
    if shape == "registers":
        return f"{word} {reg}" if value else ""
    if shape == "choice":
        return f"{word} {reg}: {str(value).upper()}" if reg else f"{word}: {str(value).upper()}{tail}"
    if shape == "register card":
        return f"{word} {reg}: {value}"
    if shape == "register card if":
        return f"{word} {reg}: {value.get('card')} IF {value.get('if')}" if isinstance(value, Mapping) else ""
    if shape == "card":
        return f"{word}: {value}"
    if shape == "switch":
        return f"{word} {'ON' if value else 'OFF'}{tail}"
    if shape == "register or never":
        return f"{word} {value or 'NEVER'}{tail}"
    if shape == "flag":
        return word if value else ""
    return ""


def form_lines(options: Sequence[str], standing: Mapping[str, Any]) -> list[str]:
    """Order-form lines for the option cards the robot holds now: standing ones as on file, the others as
    comments showing how to write them (a card it lost is not listed)."""
    lines: list[str] = []
    for card in ordered_cards():
        if card.order is None or not holds(options, card.name):
            continue
        subject = card.order.subject
        if subject in standing:
            lines += order_lines({subject: standing[subject]}, standing=True)
        else:
            lines.append(f"# {card.name}: {card.order.clause}")
    if options:
        if SACRIFICE_ORDER in standing:
            lines += order_lines({SACRIFICE_ORDER: standing[SACRIFICE_ORDER]}, standing=True)
        else:
            lines.append("# SACRIFICE ORDER: " + ", ".join(o.upper() for o in options) + "   (first given up first)")
    return lines


def fire_on_form(fire: Mapping[int, str], options: Sequence[str]) -> dict[int, str]:
    """The standing FIRE orders the robot can still carry out: a register naming a weapon it no longer
    holds (or no weapon at all) is left out, so the form never offers an order that would be refused."""
    held = {norm(w) for w in weapons_held(options)}
    return {reg: w for reg, w in fire.items() if norm(w) == MAIN_LASER or norm(w) in held}


def idle_notes(fire: Mapping[int, str]) -> list[str]:
    """Comment lines for FIRE orders naming a weapon in a register where it can never act (its card's
    ``idle_in``): the main laser fires there instead, as the rules have it."""
    notes = []
    for reg, weapon in sorted(fire.items()):
        card = declared_card(weapon)
        if card is not None and card.mail is not None and reg in card.mail.idle_in:
            notes.append(f"# register {reg}: {card.name} cannot act there (no register follows); "
                         "the main laser fires instead")
    return notes


# usage ------------------------------------------------------------------------------------------
_SYNTAX = {
    "registers": ["{w} <registers>"],
    "choice": ["{w} <registers>: {c}"],
    "register card": ["{w} <register>: <a turn card from your hand>"],
    "register card if": ["{w} <register>: <a card from your hand> IF <condition>"],
    "card": ["{w}: <a card from your hand>"],
    "switch": ["{w} ON | {w} OFF"],
    "register or never": ["{w} <register> | {w} NEVER"],
    "flag": ["{w}   (alone in a mail)"],
    "weapon": ["FIRE <registers>: {w}   (or {w} <registers>)"],
}


def usage_lines(card_name: str) -> list[str]:
    """What a card does and how its order is written, for a player who just got it:
    ``["Brakes: a Move 1 may move nothing", "  order: BRAKES <registers>", "  e.g. BRAKES 2, 4"]``."""
    card = declared_card(card_name)
    if card is None:
        return []
    lines = [f"{card.name}: {card.summary}"]
    mail = card.mail
    if mail is None:
        return [*lines, "  no order: it works by itself"]
    choices = " | ".join(words[0] for _, words in mail.choices)
    syntax = list(mail.usage) or [s.format(w=mail.words[0], c=choices) for s in _SYNTAX[mail.shape]]
    if mail.shape == "choice" and mail.keeps != "turn":
        syntax.append(f"{mail.words[0]}: {choices}   (every turn until changed)")
    elif mail.shape in ("switch", "register or never") and not mail.usage:
        syntax[-1] += {"standing": "   (kept until changed; add THIS TURN for this turn only)",
                       "always standing": "   (kept until changed)",
                       "turn": "   (this turn; add EVERY TURN to keep it)"}[mail.keeps]
    if mail.shape == "register card if":
        syntax.append(f"  conditions: {CONDITIONS}")
    lines += [f"  order: {s}" if not s.startswith("  ") else f"  {s.strip()}" for s in syntax]
    if mail.acts_on:
        lines.append(f"  {mail.rule}")
    example = card.order.clause.replace(" | ", ", or ") if card.order else f"FIRE 3: {mail.words[0]}"
    return [*lines, f"  e.g. {example}"]


_KEPT = {"turn": "this turn", "standing": "until changed", "always standing": "until changed"}


def option_table() -> str:
    """The table of the option cards' orders in docs/orders.md, made from the cards' declarations (a card
    added is in it with no hand edit; ``tests/orders/test_option_table.py`` checks the pasted one)."""
    rows = ["| card | what it does, and its order | kept |", "| --- | --- | --- |"]
    for card in sorted(cards(), key=lambda c: c.rank):
        if card.mail is None:
            continue
        summary, *usage = usage_lines(card.name)
        parts = [summary.split(": ", 1)[1]]
        for line in (u.strip() for u in usage):
            head, _, rest = line.partition(": ")
            if head == "order":
                parts.append(f"`{rest.split('   (')[0]}`" + (f" ({rest.split('   (')[1]}" if "   (" in rest else ""))
            elif line.startswith("e.g. "):
                parts.append("e.g. " + ", or ".join(f"`{e}`" for e in line[5:].split(", or ")))
            else:
                parts.append(line)
        kept = {"weapon": "until changed", "flag": "this turn"}.get(card.mail.shape, _KEPT[card.mail.keeps])
        if card.mail.shape == "choice" and card.mail.keeps != "turn":
            kept = "per register: this turn; without: until changed"
        cell = "; ".join(parts).replace("|", "\\|")
        rows.append(f"| {card.name} | {cell} | {kept} |")
    sacrifice = BY_SUBJECT[SACRIFICE_ORDER].clause
    rows.append(f"| any | which option goes first when one is given up instead of damage: `{sacrifice}` "
                "| until changed |")
    return "\n".join(rows) + "\n"
