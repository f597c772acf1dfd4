"""The choices board elements hand a player, each declared in its element's module (issue 45).

An element that asks a player something declares, next to its handlers, one :class:`ElementChoice`:

    element_orders.declare(ElementChoice(
        OptionOrder("chop_shop", "chop shop", ("turn",), '"option" or "none"', "option",
                    "CHOP SHOP: OPTION | CHOP SHOP: NONE"),
        ElementMail(("CHOP SHOP", "CHOP SHOPS"), choices=(("option", ("OPTION", "TAKE")), ("none", ("NONE", "NO"))))))

and asks ``ctx.decide(robot, element_key(subject, register), default)``. The answer comes from this turn's
orders (``Answers.orders[robot][key]``), else the declared default; there are no standing orders for them
(a robot is on such a square for a turn or two, and the player knows it when writing). The engine side is the
option cards' :class:`~.option_orders.OptionOrder` (``card`` naming the element kind); the mail side,
:class:`ElementMail`, is data the order language's one generic reader (``referee.orders.element_clauses``)
reads, echoes and lists on the order form, so a new element's choice needs no edit there.
"""

from __future__ import annotations

from dataclasses import dataclass

from .decisions import DecisionKey
from .option_orders import OptionOrder


@dataclass(frozen=True, slots=True)
class ElementMail:
    """How a player writes an element's choice by mail: ``<words> [<registers>]: <answer>``.

    ``words``: the lead words, the one the referee writes first, then aliases (a space matches spaces or a
    hyphen); ``choices``: fixed answers and the words for each (``("none", ("NONE", "NO"))``); ``card``: a card
    (``FWD2 700``, or its priority ``700``) is an answer too; ``registers``: the registers an order may name
    (empty: one answer for the turn); ``whole_turn``: with registers, an answer naming none holds for every
    one of them; ``refuse``: register -> why an order may not name it."""

    words: tuple[str, ...]
    choices: tuple[tuple[str, tuple[str, ...]], ...] = ()
    card: bool = False
    registers: tuple[int, ...] = ()
    whole_turn: bool = False
    refuse: tuple[tuple[int, str], ...] = ()


@dataclass(frozen=True, slots=True)
class ElementChoice:
    """One element's choice: the engine's side (decision subject, scopes, answer, default, clause) and the
    mail's."""

    order: OptionOrder
    mail: ElementMail

    @property
    def subject(self) -> str:
        return self.order.subject


#: decision subject -> the element's choice, in the order declared
CHOICES: dict[str, ElementChoice] = {}
#: decision subject -> the engine's side of it (the contract scenarios and the store read)
BY_SUBJECT: dict[str, OptionOrder] = {}


def declare(choice: ElementChoice) -> ElementChoice:
    """Declare an element's choice (from its module); refuses a subject taken, or mail that cannot work."""
    subject = choice.subject
    if subject in CHOICES:
        raise ValueError(f"the element order subject {subject!r} is taken by {CHOICES[subject].order.card}")
    mail = choice.mail
    if not mail.words or not (mail.choices or mail.card):
        raise ValueError(f"element order {subject!r}: mail needs lead words and answers (choices or a card)")
    if ("register" in choice.order.scopes) != bool(mail.registers):
        raise ValueError(f"element order {subject!r}: an order per register names the registers it may take")
    CHOICES[subject] = choice
    BY_SUBJECT[subject] = choice.order
    return choice


def element_key(subject: str, register: int | None = None) -> DecisionKey:
    """The decision key of an element's order (a register phase 1-5, or None for the turn)."""
    return DecisionKey(subject, register=register)
