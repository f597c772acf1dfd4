"""Programs: how many cards a robot is dealt, and whether a program is legal for it (pure).

A program is five registers. Unlocked registers take cards from the hand, each card once; fused
(locked) registers keep their card where it is. A caller may give all five registers (a locked one
either with its own card or ``None``) or only the cards for the unlocked registers, in register
order. Every problem is reported, one line each, naming the register. The store (programs set by
the GM or the command line) and the players' orders use these rules.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .cards import Card, CardError, locked_registers, parse_card
from .cards import hand_size as _hand_size_for_damage
from .state import Robot

REGISTERS = 5


class ProgramError(ValueError):
    """A program that cannot be accepted. ``problems`` holds one line per problem."""

    def __init__(self, message: str, problems: list[str] | None = None) -> None:
        super().__init__(message)
        self.problems = problems or [message]


def hand_size(robot: Robot) -> int:
    """The cards a robot is dealt this turn: 9 less its damage; none off the board or powered down."""
    if robot.pos is None or robot.powered_down:
        return 0
    return _hand_size_for_damage(robot.damage)


def fused(robot: Robot) -> list[int]:
    """The registers the robot's damage fuses."""
    return locked_registers(robot.damage)


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


