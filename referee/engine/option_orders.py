"""The orders option cards take: the one contract between the order language and the engine.

A card that needs its player's choice asks for it with ``ctx.decide(robot, order_key(SUBJECT,
register), default)``. The answer comes from this turn's orders (``Answers.orders[robot][key]``),
else from the robot's standing orders (``standing["options"][subject]``, either one value or a
mapping of register number as a string to a value), else the default its card declares. Each card
declares its :class:`OptionOrder` in its own module (:mod:`referee.engine.option_cards`); the mail
side reads the card's words into exactly that key and answer shape; the engine side never sees mail
text. The option field of :class:`DecisionKey` stays ``None`` for these subjects (the subject names the
card); weapon cards ride the existing FIRE decision instead, with the card's name as the answer.

The subjects below are the keys stored orders are kept under (the first edition's cards, named here
because the store and the order rules refer to some of them); a card added later declares its subject
in its own :class:`OptionOrder`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from .decisions import OPTION_SUBJECTS, DecisionKey

Scope = Literal["register", "turn", "standing"]

ABORT_SWITCH = "abort switch"
BRAKES = "brakes"
CIRCUIT_BREAKER = "circuit breaker"
CONDITIONAL = "conditional program"
CRAB_LEGS = "crab legs"
DUAL_PROCESSOR = "dual processor"
FIRE_CONTROL = "fire control"
FLYWHEEL = "flywheel"
FOURTH_GEAR = "fourth gear"
GYROSCOPE = "gyroscope"
RECOMPILE = "recompile"
REVERSE_GEARS = "reverse gears"
#: which option goes first when one is given up instead of damage (a list of card names)
SACRIFICE_ORDER = "sacrifice order"


@dataclass(frozen=True, slots=True)
class OptionOrder:
    """One card's order: the decision subject, where it applies, the answer's shape and the clause."""

    card: str
    subject: str
    #: "register": one answer per register phase; "turn": one answer for the turn;
    #: "standing": kept until changed (a turn's order still overrides it)
    scopes: tuple[Scope, ...]
    answer: str
    default: Any
    #: how a player writes it (the order language may accept more spellings)
    clause: str


#: the orders of the registered cards (each card's module declares its own; :func:`register_order`), and
#: SACRIFICE ORDER, which is no card's: it orders them all
SACRIFICE = OptionOrder("(any)", SACRIFICE_ORDER, ("standing",),
                        "list[str]: card names, the first held one is given up first (default: the newest)", None,
                        "SACRIFICE ORDER: BRAKES, SHIELD")
BY_SUBJECT: dict[str, OptionOrder] = {SACRIFICE_ORDER: SACRIFICE}
OPTION_SUBJECTS.add(SACRIFICE_ORDER)


def register_order(order: OptionOrder) -> None:
    """Add a card's order to the contract (called by :func:`referee.engine.option_cards.register_card`)."""
    if order.subject in BY_SUBJECT:
        raise ValueError(f"the option order subject {order.subject!r} is taken by {BY_SUBJECT[order.subject].card}")
    BY_SUBJECT[order.subject] = order
    OPTION_SUBJECTS.add(order.subject)


def orders() -> list[OptionOrder]:
    """Every option order, the cards' in the order they registered, SACRIFICE ORDER last."""
    return [o for o in BY_SUBJECT.values() if o is not SACRIFICE] + [SACRIFICE]


def order_key(subject: str, register: int | None = None) -> DecisionKey:
    """The decision key for an option order (register phases 1-5, or None for the turn)."""
    return DecisionKey(subject, register=register)
