"""Programs for the store: the engine's legality check with the store's error, cards typed on the
command line, and random programs for missing orders (pure functions, no database)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from ..engine import Card
from ..engine import programs as engine_programs
from ..engine.programs import REGISTERS
from .errors import ProgramError

__all__ = ["REGISTERS", "check_program", "parse_cards_text", "random_program"]


def check_program(robot: str, hand: Sequence[Card], locked: Mapping[int, Card],
                  cards: Sequence[Card | str | None], *, options: Sequence[str] | None = None,
                  flywheel: Card | str | None = None, conditional: Card | str | None = None,
                  dual: Mapping[int, Card | str] | None = None) -> list[Card]:
    """The five registers of a valid program (the engine's rules, option cards' cards included: see
    :func:`referee.engine.programs.check_program`), or :class:`ProgramError`."""
    try:
        return engine_programs.check_program(robot, hand, locked, cards, options=options, flywheel=flywheel,
                                             conditional=conditional, dual=dual)
    except engine_programs.ProgramError as exc:
        raise ProgramError(str(exc), exc.problems) from None


def parse_cards_text(text: str, hand: Sequence[Card] = ()) -> list[str | None]:
    """Cards as typed on the command line: comma-separated (``FWD2 670, Move-1 P490, ...``).

    A number alone (1 to 9, or up to the hand's size: Extra Memory and a Flywheel's card make it bigger)
    means that card of the hand (the hand as dealt, 1 = first card);
    ``-`` or ``locked`` leaves a register to its fused card. Cards are returned as text for
    :func:`check_program` to read, so its messages name the register.
    """
    items = [part.strip() for part in text.replace(";", ",").split(",")]
    if items == [""]:
        return []
    out: list[str | None] = []
    for item in items:
        if item in ("-", "") or item.lower() == "locked":
            out.append(None)
        elif item.isdigit() and 1 <= int(item) <= max(9, len(hand)):
            pos = int(item)
            if pos > len(hand):
                raise ProgramError(f"card {pos} of the hand: the hand has only {len(hand)} cards")
            out.append(str(hand[pos - 1]))
        else:
            out.append(item)
    return out


def random_program(hand: Sequence[Card], locked: Mapping[int, Card], seed: str) -> list[Card]:
    """A program drawn at random from the hand (fused registers kept), reproducible from ``seed``."""
    rng = random.Random(f"fill:{seed}")
    free = [reg for reg in range(1, REGISTERS + 1) if reg not in locked]
    if len(hand) < len(free):
        raise ProgramError(f"a hand of {len(hand)} cards cannot fill {len(free)} registers")
    picked = rng.sample(list(hand), len(free))
    by_reg = dict(zip(free, picked, strict=True))
    return [locked[reg] if reg in locked else by_reg[reg] for reg in range(1, REGISTERS + 1)]
