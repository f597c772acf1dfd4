"""Programs: how many cards a robot is dealt, and whether a program is legal for it (pure).

A program is five registers. Unlocked registers take cards from the hand, each card once; fused
(locked) registers keep their card where it is. A caller may give all five registers (a locked one
either with its own card or ``None``) or only the cards for the unlocked registers, in register
order. Every problem is reported, one line each, naming the register. The store (programs set by
the GM or the command line) and the players' orders use these rules.

Option cards that take cards from the hand (issue 16) are checked here too, by keyword arguments:
``flywheel`` (the card put on the Flywheel), ``conditional`` (the card put on the Conditional
Program), ``dual`` (register -> the turn card paired with that register's move card). Each must be
in the hand, in no register and used by one option only; the robot must hold the option when
``options`` is given. Extra Memory deals one more card (:func:`hand_size`); a card kept on the
Flywheel comes with the hand (the dealer adds it).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .cards import FWD2, FWD3, LF90, RT90, UTRN, Card, CardError, locked_registers, parse_card
from .cards import hand_size as _hand_size_for_damage
from .option_deck import CONDITIONAL_PROGRAM, DUAL_PROCESSOR, EXTRA_MEMORY, FLYWHEEL
from .state import Robot

REGISTERS = 5


class ProgramError(ValueError):
    """A program that cannot be accepted. ``problems`` holds one line per problem."""

    def __init__(self, message: str, problems: list[str] | None = None) -> None:
        super().__init__(message)
        self.problems = problems or [message]


def hand_size(robot: Robot) -> int:
    """The cards a robot is dealt this turn: 9 less its damage (one more with Extra Memory); none off
    the board or powered down."""
    if robot.pos is None or robot.powered_down:
        return 0
    return _hand_size_for_damage(robot.damage) + (EXTRA_MEMORY in robot.options)


def dual_pair_ok(move: Card, turn: Card) -> bool:
    """Whether Dual Processor may pair the two: a Move 2 with a 90-degree turn, a Move 3 with a U-turn."""
    return (move.type is FWD2 and turn.type in (LF90, RT90)) or (move.type is FWD3 and turn.type is UTRN)


def fused(robot: Robot) -> list[int]:
    """The registers the robot's damage fuses."""
    return locked_registers(robot.damage)


def check_program(robot: str, hand: Sequence[Card], locked: Mapping[int, Card],
                  cards: Sequence[Card | str | None], *, options: Sequence[str] | None = None,
                  flywheel: Card | str | None = None, conditional: Card | str | None = None,
                  dual: Mapping[int, Card | str] | None = None) -> list[Card]:
    """The five registers of a valid program, or :class:`ProgramError` listing every problem.

    ``options``: the options the robot holds (when given, an option card's cards below need it);
    ``flywheel``, ``conditional``: the card put on that option; ``dual``: register -> the turn card
    Dual Processor pairs with the register's move card."""
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
    if flywheel is not None or conditional is not None or dual:
        problems.extend(_option_problems(robot, in_hand, seen, where_locked, program, options,
                                         flywheel, conditional, dual or {}))
    if problems:
        first = problems[0] if len(problems) == 1 else f"{len(problems)} problems: {'; '.join(problems)}"
        raise ProgramError(f"program for {robot} refused: {first}", problems)
    return program


def _option_problems(robot: str, in_hand: set[Card], seen: dict[Card, int], where_locked: dict[Card, int],
                     program: list[Card], options: Sequence[str] | None, flywheel: Card | str | None,
                     conditional: Card | str | None, dual: Mapping[int, Card | str]) -> list[str]:
    """What is wrong with the cards put on options: not held, not in the hand, in a register, used twice,
    a Dual Processor pair that does not fit."""
    problems: list[str] = []
    used: dict[Card, str] = {}
    wanted: list[tuple[str, str, Card | str, int | None]] = []
    if flywheel is not None:
        wanted.append((FLYWHEEL, "the Flywheel", flywheel, None))
    if conditional is not None:
        wanted.append((CONDITIONAL_PROGRAM, "the Conditional Program", conditional, None))
    for dual_reg, turn in sorted(dual.items()):
        wanted.append((DUAL_PROCESSOR, f"the Dual Processor in register {dual_reg}", turn, dual_reg))
    for option, where, item, reg in wanted:
        if options is not None and option not in options:
            problems.append(f"{where}: {robot} holds no {option}")
            continue
        try:
            card = item if isinstance(item, Card) else parse_card(item)
        except CardError as exc:
            problems.append(f"{where}: {exc}")
            continue
        if card not in in_hand:
            problems.append(f"{where}: {card} is not in {robot}'s hand")
        elif card in seen:
            problems.append(f"{where}: {card} is already in register {seen[card]}")
        elif card in where_locked:
            problems.append(f"{where}: {card} is fused in register {where_locked[card]}")
        elif card in used:
            problems.append(f"{where}: {card} is already on {used[card]}")
        else:
            used[card] = where
        if reg is not None:
            if not 1 <= reg <= REGISTERS:
                problems.append(f"{where}: there is no register {reg}")
            elif reg <= len(program) and not dual_pair_ok(program[reg - 1], card):
                problems.append(f"{where}: {card} cannot share a register with {program[reg - 1]} "
                                "(a Move 2 pairs with a left or right turn, a Move 3 with a U-turn)")
    return problems


def _count_message(count: int, free: list[int], locked: Mapping[int, Card]) -> str:
    if not locked:
        return f"a program has {REGISTERS} registers: give {REGISTERS} cards; got {count}"
    fused = ", ".join(str(r) for r in sorted(locked))
    if free:
        need = f"give {REGISTERS} cards, or the {len(free)} for the unlocked registers"
    else:
        need = "give none, or the five fused cards in place"
    return f"a program has {REGISTERS} registers (fused: {fused}; {need}); got {count}"


