"""Option orders checked against the program they go with (a Dual Processor pair that fits, cards an option
takes from the hand), and merged with those on file."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.engine.cards import Card, parse_card
from referee.engine.option_cards import CARDS
from referee.engine.programs import dual_pair_ok

from .options import card_of_subject


def program_problem(subject: str, value: Any, register: int, card: Card, *, checked: bool = False) -> str | None:
    """Why an option order for ``register`` cannot act on the card the same mail's program puts there
    (None: it can). ``checked``: the engine's program rules already judged the cards put on options."""
    name = card_of_subject().get(subject)
    declared = CARDS.get(name) if name else None
    mail = declared.mail if declared else None
    if mail is None or not mail.acts_on or not value:
        return None
    if mail.shape == "register card":
        return None if checked else dual_problem(card, str(value), mail.rule)
    if card.type.move in mail.acts_on:
        return None
    return (f"{mail.rule}; register {register} holds {card}, so this order would do nothing there "
            "(change the register or the card)")


def misfits(said: Mapping[tuple[str, int | None, bool], tuple[Any, int, str]], program: Mapping[int, Card], *,
            checked: bool = False) -> list[tuple[int, str, str]]:
    """(line, text, why) for each line of option orders for this turn that cannot act on any register it
    names, given the program of the same mail (``said``: (subject, register, standing) -> (answer, line,
    text), as the parser gathers them). A line naming several registers is taken when one of them fits."""
    lines: dict[tuple[str, int], list[tuple[int, Any, str]]] = {}
    for (subject, reg, standing), (value, number, raw) in said.items():
        if reg is not None and not standing and reg in program:
            lines.setdefault((subject, number), []).append((reg, value, raw))
    out: list[tuple[int, str, str]] = []
    for (subject, number), regs in sorted(lines.items(), key=lambda kv: kv[0][1]):
        problems = [program_problem(subject, value, reg, program[reg], checked=checked) for reg, value, _ in regs]
        if not all(problems):
            continue
        if len(regs) == 1:
            out.append((number, regs[0][2], str(problems[0])))
            continue
        card = CARDS[card_of_subject()[subject]]
        assert card.mail is not None
        held = ", ".join(f"{reg}: {program[reg]}" for reg, _, _ in regs)
        out.append((number, regs[0][2], f"{card.mail.rule}; none of the registers named holds one ({held}), "
                                        "so this order would do nothing"))
    return out


def dual_problem(move: Card, turn_text: str, rule: str = "") -> str | None:
    """Why a register's card and a turn card cannot share the register on Dual Processor (None: they can)."""
    turn = parse_card(turn_text)
    if dual_pair_ok(move, turn):
        return None
    rule = rule or "Dual Processor pairs a Move 2 with a 90-degree turn or a Move 3 with a U-turn"
    return f"{rule}; this register holds {move}, which cannot share with {turn}"


# stored orders ---------------------------------------------------------------------------------
def merge(older: Mapping[str, Any], newer: Mapping[str, Any]) -> dict[str, Any]:
    """Option orders with ``newer`` on top: per-register answers merge register by register."""
    out = {k: (dict(v) if isinstance(v, Mapping) else v) for k, v in older.items()}
    for subject, value in newer.items():
        before = out.get(subject)
        if isinstance(value, Mapping) and isinstance(before, dict):
            before.update(value)
        else:
            out[subject] = dict(value) if isinstance(value, Mapping) else value
    return out
