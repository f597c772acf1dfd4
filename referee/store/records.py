"""A turn's JSON columns, typed: the one place a stored turn is decoded into engine objects and back.

A :class:`~referee.store.models.Turn` keeps cards as text (``"FWD2 670"``), fused registers as
``{robot: {"<register>": card}}``, robots as snapshot dicts and option orders as
``{robot: {subject: answer or {"<register>": answer}}}``. The functions here read and write those
shapes with the engine's own snapshot codecs (:mod:`referee.engine.snapshot`), so rows written by
any earlier version decode the same way (missing keys take their defaults).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from ..engine import Card, Robot
from ..engine.snapshot import CODECS, cards_from_list, cards_to_list, robot_from_dict, robot_to_dict

_LOCKED = CODECS["locked"]

#: what one robot's fused registers look like stored: ``{"3": "FWD1 490"}``
LockedText = dict[str, str]


class TurnColumns(Protocol):
    """The columns of a stored turn the codec reads (a ``Turn`` row, or anything shaped like one)."""

    hands: dict[str, list[str]]
    locked: dict[str, LockedText]
    undealt: list[str]
    state_before: list[dict[str, Any]]


# -- cards --------------------------------------------------------------------------------------------
def cards_text(cards: Sequence[Card | None]) -> list[str | None]:
    """Cards as stored (an empty register as None)."""
    return cards_to_list(cards)


def cards_of(items: Sequence[str | None]) -> list[Card | None]:
    """Stored cards as engine cards (None stays None)."""
    return cards_from_list(list(items))


def hand_cards(items: Sequence[str]) -> list[Card]:
    """A stored hand (no empty places) as engine cards."""
    return [c for c in cards_from_list(list(items)) if c is not None]


def locked_text(registers: Mapping[int, Card]) -> LockedText:
    """One robot's fused registers as stored, in register order."""
    out: LockedText = _LOCKED.dump(registers)
    return out


def locked_cards(stored: Mapping[str, str] | None) -> dict[int, Card]:
    """One robot's stored fused registers as ``{register: card}``."""
    out: dict[int, Card] = _LOCKED.load(stored)
    return out


# -- a turn's columns -----------------------------------------------------------------------------------
def hand_of(turn: TurnColumns, robot: str) -> list[Card]:
    """``robot``'s hand in ``turn`` (empty if it was dealt none)."""
    return hand_cards(turn.hands.get(robot, []))


def locked_of(turn: TurnColumns, robot: str) -> dict[int, Card]:
    """``robot``'s fused registers in ``turn``."""
    return locked_cards(turn.locked.get(robot))


def undealt_of(turn: TurnColumns) -> list[Card]:
    """The cards nobody was dealt in ``turn``."""
    return hand_cards(turn.undealt)


def robots_of(turn: TurnColumns) -> list[Robot]:
    """The robots at the start of ``turn`` (engine objects)."""
    return [robot_from_dict(d) for d in turn.state_before]


def snapshot(robots: Sequence[Robot]) -> list[dict[str, Any]]:
    """Robots as a stored snapshot (``state_before`` / ``state_after``)."""
    return [robot_to_dict(r) for r in robots]


def programs_of(stored: Mapping[str, Sequence[str | None]] | None) -> dict[str, list[Card | None]]:
    """Stored programs (or played cards) by robot as engine cards."""
    return {name: cards_of(cards) for name, cards in (stored or {}).items()}


def programs_text(programs: Mapping[str, Sequence[Card | None]]) -> dict[str, list[str | None]]:
    """Programs (or played cards) by robot as stored."""
    return {name: cards_text(cards) for name, cards in programs.items()}


def option_orders_text(orders: Mapping[str, Mapping[str, Any]]) -> dict[str, dict[str, Any]] | None:
    """This turn's option orders by robot as stored (robots that said nothing left out; None if nobody did)."""
    return {robot: dict(said) for robot, said in orders.items() if said} or None


@dataclass(frozen=True)
class Deal:
    """The cards of a turn as dealt: hands, fused registers and the cards nobody holds."""

    hands: dict[str, list[Card]]
    locked: dict[str, dict[int, Card]]
    undealt: list[Card]

    @classmethod
    def of_turn(cls, turn: TurnColumns) -> Deal:
        return cls(hands={name: hand_cards(cards) for name, cards in turn.hands.items()},
                   locked={name: locked_cards(regs) for name, regs in turn.locked.items()},
                   undealt=hand_cards(turn.undealt))

    def hands_text(self) -> dict[str, list[str]]:
        return {name: [str(c) for c in hand] for name, hand in self.hands.items()}

    def locked_text(self) -> dict[str, LockedText]:
        """Fused registers as stored: robots with none are left out."""
        return {name: locked_text(regs) for name, regs in self.locked.items() if regs}

    def undealt_text(self) -> list[str]:
        return [str(c) for c in self.undealt]
