"""Decisions: when an effect needs a player's choice, the engine asks by a stable key.

The answer comes from the turn's orders, else the robot's standing orders, else the default the
asking code gives. Every decision asked is recorded (robot, key, answer, where the answer came
from) in :attr:`TurnResult.decisions` and, as a ``decision`` event, in the turn's event log where it
was taken, so a stored turn keeps its decisions and a replay shows it took the same ones.
:func:`table_items` says which of them the report tables show.

Standing orders are the dictionaries the order language stores (``sacrifice_at``,
``two_wrenches``, ``fire`` with string register keys); :func:`standing_answer` maps a key to them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from . import shown
from .events import Event, register_typed_kind

shown.untold("decision", "the player's own choice; the stage tables show it with its card")

#: the event kind of a decision taken
DECISION = "decision"
#: where an answer came from
ORDERS, STANDING, DEFAULT = "orders", "standing", "default"

#: subjects the engine asks about
FIRE, SACRIFICE, TWO_WRENCHES = "fire", "sacrifice", "two wrenches"
MAIN_LASER = "main laser"


@dataclass(frozen=True, slots=True)
class DecisionKey:
    """What is being decided: a subject, for a register phase and an option card when they matter."""

    subject: str
    register: int | None = None
    option: str | None = None

    def __str__(self) -> str:
        parts = [self.subject]
        if self.register is not None:
            parts.append(f"register {self.register}")
        if self.option is not None:
            parts.append(self.option)
        return ", ".join(parts)


@dataclass(slots=True)  # not frozen: one is made for every decision, and a frozen one costs twice as much
class Decision:
    robot: str
    key: DecisionKey
    answer: Any
    #: "orders", "standing" or "default"
    source: str
    #: what the engine did with the answer when it differs from it (e.g. no option deck yet)
    note: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"robot": self.robot, "subject": self.key.subject, "answer": self.answer,
                               "source": self.source}
        if self.key.register is not None:
            out["register"] = self.key.register
        if self.key.option is not None:
            out["option"] = self.key.option
        if self.note:
            out["note"] = self.note
        return out

    def event_args(self) -> dict[str, Any]:
        """The args of its ``decision`` event: the key's parts (None when it has none), answer, source, note."""
        key = self.key
        out: dict[str, Any] = {"subject": key.subject, "register": key.register, "option": key.option,
                               "answer": _plain(self.answer), "source": self.source}
        if self.note:
            out["note"] = self.note
        return out

    @classmethod
    def from_event(cls, ev: Event) -> Decision:
        """The decision a ``decision`` event records."""
        args = ev.args or {}
        if ev.kind != DECISION or ev.robot is None:
            raise ValueError(f"not a decision event: {ev!r}")
        key = DecisionKey(args["subject"], args.get("register"), args.get("option"))
        return cls(ev.robot, key, args.get("answer"), args["source"], args.get("note"))


_SCALARS = (bool, str, int, float, type(None))


def _plain(value: Any) -> Any:
    """An answer as JSON holds it (a tuple of option names comes back a list), so a stored turn compares equal."""
    if type(value) in _SCALARS:
        return value
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


def _words(args: dict[str, Any]) -> str:
    key = DecisionKey(args["subject"], args.get("register"), args.get("option"))
    return f"{key}: chose {args.get('answer')} ({args.get('source')})"


register_typed_kind(DECISION, _words)


def decisions_of(events: list[Event]) -> list[Decision]:
    """The decisions a turn's event log records, in the order they were taken."""
    return [Decision.from_event(ev) for ev in events if ev.kind == DECISION]


def table_items(ev: Event) -> list[str]:
    """What the report tables say of a decision: only a choice from this turn's orders, or one the engine
    could not follow (it has a note). Defaults and standing orders stay in the log, not in the tables:
    what they make happen has events of its own."""
    args = ev.args or {}
    if args.get("source") != ORDERS and not args.get("note"):
        return []
    return [f"{ev.text}; {args['note']}" if args.get("note") else ev.text]


@dataclass
class Answers:
    """The answers a turn's players gave: per robot, this turn's orders by key, and standing orders."""

    orders: dict[str, dict[DecisionKey, Any]] = field(default_factory=dict)
    standing: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)

    def answer(self, robot: str, key: DecisionKey) -> tuple[Any, str] | None:
        said = self.orders.get(robot)
        if said and key in said:
            return said[key], "orders"
        standing = self.standing.get(robot)
        if standing:
            value = standing_answer(standing, key)
            if value is not None:
                return value, STANDING
        return None


#: the subjects of the option cards' orders, whose standing answers are kept under ``standing["options"]``
#: (added by :func:`referee.engine.option_orders.register_order`)
OPTION_SUBJECTS: set[str] = set()


def standing_answer(standing: Mapping[str, Any], key: DecisionKey) -> Any:
    """A standing order's answer to ``key``, or None when the standing orders say nothing about it."""
    if key.subject == TWO_WRENCHES:
        value = standing.get("two_wrenches")
        return value if value in ("repair", "option") else None
    if key.subject == SACRIFICE:
        value = standing.get("sacrifice_at")
        return value if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 10 else None
    if key.subject == FIRE and key.register is not None:
        fire = standing.get("fire")
        if isinstance(fire, Mapping):
            weapon = fire.get(str(key.register), fire.get(key.register))
            return str(weapon) if weapon is not None else None
    options = standing.get("options")
    if not isinstance(options, Mapping) or key.subject not in OPTION_SUBJECTS:
        return None
    value = options.get(key.subject)
    if isinstance(value, Mapping):
        return None if key.register is None else value.get(str(key.register))
    return value
