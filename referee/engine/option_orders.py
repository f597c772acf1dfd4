"""The orders option cards take: the one contract between the order language and the engine.

A card that needs its player's choice asks for it with ``ctx.decide(robot, order_key(SUBJECT,
register), default)``. The answer comes from this turn's orders (``Answers.orders[robot][key]``),
else from the robot's standing orders (``standing["options"][subject]``, either one value or a
mapping of register number as a string to a value), else the default below. The mail side parses
the clause named in :data:`ORDERS` into exactly that key and answer shape; the engine side never
sees mail text. The option field of :class:`DecisionKey` stays ``None`` for these subjects (the
subject names the card); weapon cards ride the existing FIRE decision instead, with the card's
name as the answer.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from .decisions import DecisionKey

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


ORDERS: tuple[OptionOrder, ...] = (
    OptionOrder("Abort Switch", ABORT_SWITCH, ("turn", "standing"),
                "int: the register (1-5) whose revealed card is replaced, 0 for never", 0,
                "ABORT 3 | ABORT NEVER"),
    OptionOrder("Brakes", BRAKES, ("register",), "True: this register's Move 1 moves 0 squares", False,
                "BRAKES 2 | BRAKES 2, 4"),
    OptionOrder("Circuit Breaker", CIRCUIT_BREAKER, ("standing",),
                "bool: power down next turn at 3+ damage (False declines)", True,
                "CIRCUIT BREAKER ON | CIRCUIT BREAKER OFF"),
    OptionOrder("Conditional Program", CONDITIONAL, ("register",),
                "dict {'card': str(Card) from the unused hand, 'if': condition text}; conditions: "
                "'FACING N|E|S|W', 'AT r<row>c<col>', 'ROBOT AHEAD', 'WALL AHEAD', 'DAMAGE >= <n>', "
                "each optionally preceded by 'NOT '", None,
                "CONDITIONAL 4: U 50 IF ROBOT AHEAD"),
    OptionOrder("Crab Legs", CRAB_LEGS, ("register",), "'left' or 'right': this register's Move 1 goes sideways",
                None, "CRAB 2: LEFT"),
    OptionOrder("Dual Processor", DUAL_PROCESSOR, ("register",),
                "str(Card): a turn card from the hand shared with this register's move card "
                "(Move 2 + a 90-degree turn, Move 3 + a U-turn; move first, then turn)", None,
                "DUAL 3: R 80"),
    OptionOrder("Fire Control", FIRE_CONTROL, ("register", "standing"),
                "'damage', 'option' or 'register': what a main-laser hit does instead of damage", "damage",
                "FIRE CONTROL 2: OPTION | FIRE CONTROL: REGISTER"),
    OptionOrder("Flywheel", FLYWHEEL, ("turn",),
                "str(Card): an unused card kept on the option, offered in the hand of later turns", None,
                "FLYWHEEL: M2 490"),
    OptionOrder("Fourth Gear", FOURTH_GEAR, ("register",), "True: this register's Move 3 moves 4 squares", False,
                "FOURTH GEAR 3"),
    OptionOrder("Gyroscopic Stabilizer", GYROSCOPE, ("turn", "standing"),
                "bool: not turned by gears or turning belts this turn", False, "GYRO ON | GYRO OFF"),
    OptionOrder("Recompile", RECOMPILE, ("turn",),
                "True: the hand was redealt this turn (the store deals; the engine charges 1 damage)", False,
                "RECOMPILE"),
    OptionOrder("Reverse Gears", REVERSE_GEARS, ("register",), "True: this register's Back Up moves 2 squares",
                False, "REVERSE GEARS 4"),
    OptionOrder("(any)", SACRIFICE_ORDER, ("standing",),
                "list[str]: card names, the first held one is given up first (default: the newest)", None,
                "SACRIFICE ORDER: BRAKES, SHIELD"),
)

#: weapon cards fired "instead of the main laser": FIRE <registers>: <card name>
WEAPONS: tuple[str, ...] = ("Mini Howitzer", "Pressor Beam", "Radio Control", "Scrambler", "Tractor Beam")

BY_SUBJECT: dict[str, OptionOrder] = {o.subject: o for o in ORDERS}


def order_key(subject: str, register: int | None = None) -> DecisionKey:
    """The decision key for an option order (register phases 1-5, or None for the turn)."""
    return DecisionKey(subject, register=register)


def standing_option_answer(standing: Any, key: DecisionKey) -> Any:
    """The standing order's answer for an option subject, or None when none is on file."""
    options = standing.get("options") if isinstance(standing, Mapping) else None
    if not isinstance(options, Mapping) or key.subject not in BY_SUBJECT:
        return None
    value = options.get(key.subject)
    if isinstance(value, Mapping):
        if key.register is None:
            return None
        return value.get(str(key.register))
    return value
