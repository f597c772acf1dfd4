"""The order language's terms: what a mail's orders are read into, and the words they share.

:class:`OrderContext` is what the reader must know of the robot; :class:`OrderResult` what it read
(the program as :class:`Register` s, :class:`StandingOrders`, commands, :class:`OrderError` s).
The reader itself is :mod:`.language`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from referee.engine.cards import Card
from referee.engine.option_orders import BY_SUBJECT, RECOMPILE

from . import option_checks

#: the weapon every robot has; option weapons come from the robot's option cards
MAIN_LASER = "main laser"
#: the option-sacrifice threshold when the player says nothing (turn report rules)
DEFAULT_SACRIFICE_HP = 6
#: longer lines are refused without being read (a pasted blob is not an order)
MAX_LINE = 400
#: a mail with more non-blank lines to read than this is refused (orders take a few dozen)
MAX_LINES = 500
#: at most this many errors are listed; the rest are counted
MAX_ERRORS = 25
DIRECTIONS = {"N": 0, "NORTH": 0, "E": 1, "EAST": 1, "S": 2, "SOUTH": 2, "W": 3, "WEST": 3}
DIRECTION_NAMES = ("N", "E", "S", "W")


@dataclass(frozen=True)
class OrderContext:
    """What the parser must know about the robot: the hand as mailed, locked registers, options."""

    hand: Sequence[Card] = ()
    #: register number (1-5) -> the card fused there
    locked: Mapping[int, Card] = field(default_factory=dict)
    #: names of the robot's option cards (weapons among them may be named in FIRE orders)
    options: Sequence[str] = ()

    @property
    def free_registers(self) -> list[int]:
        return [r for r in range(1, 6) if r not in self.locked]


@dataclass(frozen=True)
class OrderError:
    line: int | None   # 1-based line of the mail text, None when the error is about the whole program
    text: str          # the line as written (shortened when long)
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}" if self.line is not None else self.message


@dataclass(frozen=True)
class Register:
    number: int
    card: Card
    locked: bool = False
    line: int | None = None   # where the player gave it (None: filled in automatically)


@dataclass
class StandingOrders:
    """Orders besides the program. ``None`` (or an empty dict) means "not said in this mail"."""

    #: True: power down (reboot) next turn; False: do not (cancels an earlier REBOOT)
    power_down: bool | None = None
    #: HP from which an option is given up instead of a hit; 0 means never
    sacrifice_at: int | None = None
    #: "repair" or "option" on a two-wrench site
    two_wrenches: str | None = None
    #: facing 0-3 (N, E, S, W) when the robot re-enters
    reenter_facing: int | None = None
    #: register -> weapon to fire in that register phase
    fire: dict[int, str] = field(default_factory=dict)
    #: option cards' standing orders: subject -> answer (see :mod:`referee.engine.option_orders`)
    options: dict[str, Any] = field(default_factory=dict)

    def merged(self, newer: StandingOrders) -> StandingOrders:
        """These orders with everything ``newer`` says on top (a new set of FIRE orders replaces the old)."""
        return StandingOrders(
            power_down=self.power_down if newer.power_down is None else newer.power_down,
            sacrifice_at=self.sacrifice_at if newer.sacrifice_at is None else newer.sacrifice_at,
            two_wrenches=self.two_wrenches if newer.two_wrenches is None else newer.two_wrenches,
            reenter_facing=self.reenter_facing if newer.reenter_facing is None else newer.reenter_facing,
            fire=dict(newer.fire) if newer.fire else dict(self.fire),
            options=option_checks.merge(self.options, newer.options),
        )

    def is_empty(self) -> bool:
        return self == StandingOrders()

    def to_dict(self) -> dict[str, object]:
        """JSON-ready: only what was said (``fire`` keys become strings)."""
        out: dict[str, object] = {k: v for k, v in (("power_down", self.power_down),
                                                     ("sacrifice_at", self.sacrifice_at),
                                                     ("two_wrenches", self.two_wrenches),
                                                     ("reenter_facing", self.reenter_facing)) if v is not None}
        if self.fire:
            out["fire"] = {str(r): w for r, w in sorted(self.fire.items())}
        if self.options:
            out["options"] = dict(self.options)
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, object] | None) -> StandingOrders:
        """The inverse of :meth:`to_dict`; values of the wrong kind are left out rather than trusted."""
        data = data or {}
        out = cls()
        if isinstance(data.get("power_down"), bool):
            out.power_down = bool(data["power_down"])
        value = data.get("sacrifice_at")
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 10:
            out.sacrifice_at = value
        if data.get("two_wrenches") in ("repair", "option"):
            out.two_wrenches = str(data["two_wrenches"])
        value = data.get("reenter_facing")
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 3:
            out.reenter_facing = value
        fire = data.get("fire")
        if isinstance(fire, Mapping):
            out.fire = {int(r): str(w) for r, w in fire.items() if str(r) in ("1", "2", "3", "4", "5")}
        options = data.get("options")
        if isinstance(options, Mapping):
            out.options = {str(k): v for k, v in options.items() if k in BY_SUBJECT}
        return out


@dataclass
class OrderResult:
    #: the five effective registers when the mail gave a complete, valid program; else None
    registers: list[Register] | None = None
    standing: StandingOrders = field(default_factory=StandingOrders)
    #: "help", "status", "cards", in the order asked, each once
    commands: list[str] = field(default_factory=list)
    errors: list[OrderError] = field(default_factory=list)
    #: lines skipped as prose (outside a BEGIN block only): (line, text)
    ignored: list[tuple[int, str]] = field(default_factory=list)
    #: register -> card for every register that was understood, even when the program has errors
    #: (what a corrected template is pre-filled with); locked registers are always in it
    draft: dict[int, Card] = field(default_factory=dict)
    #: whether the mail tried to give a program at all
    program_given: bool = False
    #: option orders for this turn only: subject -> answer, or -> {"<register>": answer}
    option_orders: dict[str, Any] = field(default_factory=dict)

    @property
    def recompile(self) -> bool:
        """Whether the mail asks for a second hand (Recompile)."""
        return bool(self.option_orders.get(RECOMPILE))

    @property
    def ok(self) -> bool:
        return not self.errors

    @property
    def program(self) -> list[Card] | None:
        return [r.card for r in self.registers] if self.registers else None


def facing_name(facing: int) -> str:
    return DIRECTION_NAMES[facing % 4]
