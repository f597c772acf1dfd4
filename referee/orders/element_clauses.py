"""Orders for the choices board elements hand a player: one generic reader over their declarations.

Each element that asks a player something declares its mail (``engine.element_orders.ElementMail``) in its
own module; this module reads every declared choice the same way, for this turn only:

* ``<WORDS>: <answer>`` for a choice of the turn (``CHOP SHOP: OPTION``, ``RESET CHOOSE: RANDOM``);
* ``<WORDS> <registers>: <answer>`` for a choice per register (``RESET EXCHANGE 3: FWD2 700``,
  ``RADIOACTIVE WASTE 2, 4: NONE``; ``REGISTER 3`` also reads), and ``<WORDS>: <answer>`` for every register
  of a choice that allows it (``RADIOACTIVE WASTE: NONE``).

An answer is one of the declared words, or (where declared) a card written with its type and priority
(``FWD2 700``) or by its priority alone (``700``: no two cards share one). A line led by a choice's first word
that does not read is an error saying how to write it (unless it is prose, a sentence of more than six words).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache
from typing import Any

from referee.engine.cards import BY_PRIORITY, Card, CardError, parse_card
from referee.engine.element_orders import CHOICES, ElementChoice

from .options import OptionBad, OptionClause

_SEP = r"\s*(?:[:=-]\s*|\s)\s*"
_REGS = r"(?:\s+(?:(?:REGISTERS?|REGS?|PHASES?)\s*)?(?P<regs>[1-5](?:\s*(?:,|AND|&)\s*[1-5])*))?"


def _lead(words: Iterable[str]) -> str:
    return "(?:" + "|".join(r"[\s-]*".join(map(re.escape, w.split())) for w in words) + ")"


@cache
def _patterns() -> tuple[tuple[re.Pattern[str], ElementChoice], ...]:
    """One pattern per lead word of every declared choice, the longest words first (``RESET CHOOSE`` before
    ``RESET``)."""
    found = [(word, choice) for choice in CHOICES.values() for word in choice.mail.words]
    found.sort(key=lambda item: -len(item[0]))
    return tuple((re.compile(r"^" + _lead([word]) + r"S?" + _REGS + _SEP + r"(?P<answer>\S.*?)\.?$"), choice)
                 for word, choice in found)


def leads() -> tuple[str, ...]:
    """The first words of every declared choice: a line led by one is an element order or an error."""
    return tuple(sorted({w.split()[0] for c in CHOICES.values() for w in c.mail.words}))


def read_element_clause(text: str) -> OptionClause | None:
    """The element order a normalized (upper-case) line gives; None when the line is no element order.

    Raises :class:`OptionBad` (with how to write it) for a line that starts like one but is written wrongly.
    """
    for pattern, choice in _patterns():
        m = pattern.match(text)
        if m:
            return _clause(choice, m.group("regs"), m.group("answer").strip())
    first = text.split()[0].strip(":=") if text.split() else ""
    if first in leads() and not _prose(text):
        hows = [c.order.clause for c in CHOICES.values() if any(w.split()[0] == first for w in c.mail.words)]
        raise OptionBad(f"this {first.lower()} order is not written as the referee reads it: write e.g. "
                        + ", or ".join(hows))
    return None


def _clause(choice: ElementChoice, regs: str | None, word: str) -> OptionClause:
    mail, how = choice.mail, choice.order.clause
    registers = [int(r) for r in re.findall(r"[1-5]", regs)] if regs else []
    refused = dict(mail.refuse)
    for register in registers:
        if register in refused:
            raise OptionBad(refused[register])
        if register not in mail.registers:
            raise OptionBad(f"{choice.subject} takes registers {', '.join(map(str, mail.registers))}: write {how}")
    if registers and not mail.registers:
        raise OptionBad(f"{choice.subject} is an order for the whole turn, without registers: write {how}")
    if mail.registers and not registers and not mail.whole_turn:
        raise OptionBad(f"{choice.subject} names its register: write {how}")
    value = _answer(choice, word)
    if not mail.registers:
        return OptionClause(choice.subject, value)
    return OptionClause(choice.subject, None, registers=dict.fromkeys(registers or mail.registers, value))


def _answer(choice: ElementChoice, word: str) -> Any:
    for answer, words in choice.mail.choices:
        if word in words:
            return answer
    if choice.mail.card:
        return str(_card(word, choice.order.clause))
    raise OptionBad(f"{word!r} is no {choice.subject} answer: write {choice.order.clause}")


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
    choice = CHOICES.get(subject)
    if choice is None or value is None:
        return ""
    word = choice.mail.words[0]
    if register is not None and choice.mail.registers:
        return f"{word} {register}: {str(value).upper()}"
    return "" if choice.mail.registers else f"{word}: {str(value).upper()}"


def form_lines(kinds: Iterable[str]) -> list[str]:
    """Order-form lines (comments showing how to write them) for the choices of the element kinds a course
    holds."""
    on = set(kinds)
    return [f"# {choice.order.card.replace('_', ' ')}: {choice.order.clause}"
            for choice in CHOICES.values() if choice.order.card in on]
