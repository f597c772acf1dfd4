"""Checking a program against a player's hand and fused registers (pure functions, no database).

A program is five registers. Unlocked registers take cards from the hand, each card once;
fused (locked) registers keep their card where it is. A caller may give all five registers (a
locked one either with its own card or ``None``) or only the cards for the unlocked registers,
in register order. Everything wrong is reported, one line per problem, naming the register.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from ..engine import Card, CardError, parse_card
from .errors import ProgramError

REGISTERS = 5


def check_program(robot: str, hand: Sequence[Card], locked: Mapping[int, Card],
                  cards: Sequence[Card | str | None]) -> list[Card]:
    """The five registers of a valid program, or :class:`ProgramError` listing every problem."""
    free = [reg for reg in range(1, REGISTERS + 1) if reg not in locked]
    if len(cards) == REGISTERS:
        given = dict(zip(range(1, REGISTERS + 1), cards, strict=True))
    elif len(cards) == len(free) and len(free) < REGISTERS:
        given = dict(zip(free, cards, strict=True))
    else:
        raise ProgramError(_count_message(len(cards), free, locked))

    problems: list[str] = []
    where_locked = {card: reg for reg, card in locked.items()}
    in_hand = set(hand)
    seen: dict[Card, int] = {}
    program: list[Card] = []
    for reg in range(1, REGISTERS + 1):
        item = given.get(reg)
        card: Card | None = None
        if isinstance(item, Card):
            card = item
        elif item is not None:
            try:
                card = parse_card(item)
            except CardError as exc:
                problems.append(f"register {reg}: {exc}")
        if reg in locked:
            if card is not None and card != locked[reg]:
                problems.append(f"register {reg} is fused with {locked[reg]}; it cannot hold {card}")
            program.append(locked[reg])
            continue
        if card is None:
            if item is None:
                problems.append(f"register {reg} is empty")
        elif card in where_locked:
            problems.append(f"register {reg}: {card} is fused in register {where_locked[card]}")
        elif card not in in_hand:
            problems.append(f"register {reg}: {card} is not in {robot}'s hand")
        elif card in seen:
            problems.append(f"register {reg}: {card} is already in register {seen[card]}")
        else:
            seen[card] = reg
        if card is not None:
            program.append(card)
    if problems:
        first = problems[0] if len(problems) == 1 else f"{len(problems)} problems: {'; '.join(problems)}"
        raise ProgramError(f"program for {robot} refused: {first}", problems)
    return program


def _count_message(count: int, free: list[int], locked: Mapping[int, Card]) -> str:
    if not locked:
        return f"a program has {REGISTERS} registers: give {REGISTERS} cards; got {count}"
    fused = ", ".join(str(r) for r in sorted(locked))
    if free:
        need = f"give {REGISTERS} cards, or the {len(free)} for the unlocked registers"
    else:
        need = "give none, or the five fused cards in place"
    return f"a program has {REGISTERS} registers (fused: {fused}; {need}); got {count}"


def parse_cards_text(text: str, hand: Sequence[Card] = ()) -> list[str | None]:
    """Cards as typed on the command line: comma-separated (``FWD2 670, Move-1 P490, ...``).

    A number from 1 to 9 alone means that card of the hand (the hand as dealt, 1 = first card);
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
        elif item.isdigit() and 1 <= int(item) <= 9:
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
