"""Rules for taking orders that the words alone do not settle (pure: what is on file in, a plan out).

A mail's orders are read by :mod:`.language`; whether and how they go on file depends on what is on
file already for the robot's turn. These rules were the intake's; they are the order language's:

* **REBOOT goes with a program.** A power down (``REBOOT`` / ``NO REBOOT``) or a re-entry facing
  sent while the robot still owes this turn's program, and none is on file, is refused: it would
  otherwise file an empty program. Once a program is on file (or none is owed) they ride on it.
* **Option orders for this turn go with a program**, the same way (RECOMPILE apart: it asks for a
  new hand). A mail with a program brings its own; one without adds to those on file.
* **The re-entry facing default**: a program sent without a facing, as the robot's first order of
  the turn, takes the facing of the player's standing orders (``REENTER FACING W`` said once holds).
* **Standing orders are kept** (all but the power down, which is for one turn); option cards'
  standing orders change one card at a time.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from referee.engine.cards import Card
from referee.engine.option_orders import RECOMPILE

from . import option_checks
from . import options as option_orders
from .language import DIRECTION_NAMES, OrderResult


class OrderRuleError(ValueError):
    """Orders that cannot be taken as they stand; the message is for the player."""


@dataclass(frozen=True)
class OnFile:
    """What is on file for the robot's open turn when a mail comes."""

    turn: int
    #: the robot owes a program this turn (it is not powered down, destroyed, ...)
    owes: bool
    #: an order of this turn is on file (with or without a program)
    has_order: bool = False
    #: that order holds a program
    program: bool = False
    #: that order's option orders for this turn
    turn_options: Mapping[str, Any] = field(default_factory=dict)
    #: the player's standing orders as stored
    standing: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Filing:
    """What goes on file: the turn's order (when ``submit``) and the standing orders to keep."""

    submit: bool
    cards: Sequence[Card | str | None] = ()
    power_down: bool | None = None
    #: ``N``, ``E``, ``S``, ``W`` or None
    facing: str | None = None
    #: the order's extra data: the standing orders said and this turn's option orders
    extra: dict[str, Any] | None = None
    #: standing orders to merge into the player's (empty: none said)
    standing: dict[str, Any] = field(default_factory=dict)


def with_program(what: str, turn: int) -> str:
    """The refusal of an order that needs a program on file."""
    return (f"{what} goes with a program: no program of yours is on file for turn {turn} yet, "
            "so send your five registers with it")


def filing(result: OrderResult, on_file: OnFile) -> Filing:
    """How the orders of a valid mail go on file (see the module docstring). Raises
    :class:`OrderRuleError` when they cannot be taken."""
    standing = result.standing
    cards: list[Card | str | None] = [r.card for r in result.registers] if result.registers else []
    facing = DIRECTION_NAMES[standing.reenter_facing] if standing.reenter_facing is not None else None
    rides = bool(cards) or on_file.program or not on_file.owes   # a program is (or needs not be) on file
    said = {k: v for k, v in result.option_orders.items() if k != RECOMPILE}
    if said and not rides:
        first = sorted(said)[0]
        raise OrderRuleError(f"{option_orders.CARD_OF.get(first, first)} orders go with a program: no program of "
                             f"yours is on file for turn {on_file.turn} yet, so send your five registers with them")
    if not cards and on_file.has_order:
        said = option_checks.merge(on_file.turn_options, said)
    submit = bool(cards) or standing.power_down is not None or (facing is not None and rides) or bool(said)
    if submit and not rides:
        raise OrderRuleError(with_program(power_word(standing.power_down), on_file.turn))
    kept = on_file.standing.get("reenter_facing")
    if submit and facing is None and not on_file.has_order and isinstance(kept, int) and 0 <= kept <= 3:
        facing = DIRECTION_NAMES[kept]
    extra = {**standing.to_dict(), **({"turn_options": said} if said else {})}
    return Filing(submit, cards, standing.power_down, facing, extra or None, standing_to_keep(result, on_file.standing))


def power_word(power_down: bool | None) -> str:
    """The order a refused power-down or re-entry mail gave, as the player wrote it."""
    return "REBOOT" if power_down else "NO REBOOT" if power_down is False else "REENTER"


def standing_to_keep(result: OrderResult, stored: Mapping[str, Any]) -> dict[str, Any]:
    """The standing orders of the mail to merge into the player's: all but the power down (one turn's);
    option cards' standing orders merged into those stored, one card at a time."""
    keep: dict[str, Any] = {k: v for k, v in result.standing.to_dict().items() if k != "power_down"}
    if result.standing.options:
        keep["options"] = option_checks.merge(stored.get("options") or {}, result.standing.options)
    return keep
