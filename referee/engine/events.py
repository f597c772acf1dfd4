"""Typed events: a kind and its arguments; the words are made from them, not the other way round.

The engine logs ``Event(phase, step, robot, kind, args, data)``. ``args`` are what the wording
needs (a square, an amount); ``data`` are the extra keys of the scenario contract (card, cause,
by...). :data:`WORDING` turns a kind and its args into the contract's text (``move to r5c4``);
report tables map kinds to their own words.

A stored turn holds its events typed (:mod:`referee.engine.event_codec`). Turns stored before that
hold the contract's form (``to_dict``: words and data keys): :func:`read_event` recovers kind and
args from the words by the same templates (the one place wording is parsed), so report tables work
on kinds for every turn ever stored.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .geometry import run_name

#: kind -> the contract's wording, a ``str.format`` template over the event's args
WORDING: dict[str, str] = {
    "move": "move to {to}",
    "face": "face {dir}",
    "blocked": "obstruction encountered",
    "pushed": "pushed to {to}",
    "conveyed": "conveyed to {to}",
    "carried": "carried to {to}",
    "slide": "slide to {to}",
    "teleport": "teleport to {to}",
    "water": "first square lost in water",
    "card replaced": "card replaced by {card}",
    "damage": "-{amount} HP",
    "repair": "+{amount} HP",
    "destroyed": "destroyed",
    "fused": "register {register} fused",
    "released": "register {register} released",
    "archive": "archive {at}",
    "flag": "touch flag {number}",
    "real": "real",
    "wins": "wins",
    "powered down": "powered down",
    "powers down": "powers down for next turn",
    "re-enter": "re-enter at {at}",
    "out": "out of the game",
    "sacrificed": "option {option} sacrificed",
    "option drawn": "draws option {option}",
    "no option": "no option left to draw",
    "option lost": "option {option} lost",
    "option used up": "option {option} used up",
    "steady": "not turned ({option})",
    "option used": "uses {option}",
    "absorbed": "{option} stops {amount} damage",
    "register locked": "register {register} locked",
    "scrambled": "register {register} scrambled to {card}",
    "radio controlled": "radio controlled",
    "card kept": "keeps {card} on the flywheel",
    # the squares a robot's laser passed; matches any text, so the old-form reader tries it last
    "fire": "{path}",
}
#: args that are whole numbers
_INTS = frozenset({"amount", "register", "number"})
#: the keys every stored event has; the rest are its data
FIXED_KEYS = ("phase", "step", "robot", "text")


#: kinds that only exist typed, never in a turn stored in words (the old-form reader does not read them) nor
#: in the scenario contract's event log (the engine's ``decision``): kind -> its words, made from the args
TYPED_WORDING: dict[str, Callable[[dict[str, Any]], str]] = {}


def register_typed_kind(kind: str, wording: Callable[[dict[str, Any]], str]) -> None:
    """A kind of the engine's own that only exists typed, with what makes its words."""
    if kind in WORDING:
        raise ValueError(f"event kind {kind!r} already has the wording {WORDING[kind]!r}")
    TYPED_WORDING[kind] = wording


def register_wording(kind: str, template: str) -> None:
    """Give a new event kind its words (a kind module logging an event of its own)."""
    if kind in TYPED_WORDING:
        raise ValueError(f"event kind {kind!r} is the engine's own")
    if WORDING.get(kind, template) != template:
        raise ValueError(f"event kind {kind!r} already has the wording {WORDING[kind]!r}")
    WORDING[kind] = template
    _PATTERNS.clear()


def known_kind(kind: str) -> str:
    """``kind``, refused unless some wording is registered for it: code outside the engine that decides on
    kinds (report tables, standings) names them through this at import, so a kind renamed or gone fails
    there and then, not in a game's report."""
    if kind not in WORDING and kind not in TYPED_WORDING:
        raise ValueError(f"no event kind {kind!r} (known: {', '.join(sorted([*WORDING, *TYPED_WORDING]))})")
    return kind


def words(kind: str, args: dict[str, Any] | None) -> str:
    template = WORDING.get(kind)
    if template is None:
        return TYPED_WORDING[kind](args or {})
    return template.format(**args) if args else template


@dataclass(init=False)
class Event:
    """One line of the turn's log: what happened (kind, args) and the contract's extra keys (data).

    The engine logs some args unmade (:data:`LogEntry`): a square for ``{"to": "r5c4"}``, a beam's squares (or
    its name, a string) for ``{"path": "r4-6c7"}``; they are made the first time ``args`` is read, so a turn
    nobody reads pays nothing for naming squares.
    """

    __slots__ = ("_args", "data", "kind", "phase", "robot", "step")

    phase: int | str
    step: str
    robot: str | None
    kind: str
    args: dict[str, Any] | None
    data: dict[str, Any] | None

    def __init__(self, phase: int | str, step: str, robot: str | None, kind: str,
                 args: dict[str, Any] | None = None, data: dict[str, Any] | None = None) -> None:
        self.phase = phase
        self.step = step
        self.robot = robot
        self.kind = kind
        self._args: Any = args
        self.data = data

    @property
    def text(self) -> str:
        return words(self.kind, self.args)

    def to_dict(self) -> dict[str, Any]:
        """The scenario contract's form: phase, step, robot, text, then the data keys."""
        out: dict[str, Any] = {"phase": self.phase, "step": self.step, "robot": self.robot, "text": self.text}
        if self.data:
            out.update(self.data)
        return out


#: a beam's squares -> their name (a board's beams run over the same squares turn after turn); a cache, bounded
_RUN_NAMES: dict[Any, str] = {}


def made_args(args: Any) -> dict[str, Any] | None:
    """An event's args as read: unmade ones (a square, a beam's squares: a tuple; a beam's name) made, others as
    they are."""
    if args.__class__ is str:
        return {"path": args}
    if args.__class__ is tuple:  # unmade: a square, or a beam's squares
        if args[0].__class__ is not tuple:
            return {"to": f"r{args[0]}c{args[1]}"}
        name = _RUN_NAMES.get(args)
        if name is None:
            if len(_RUN_NAMES) > 4096:
                _RUN_NAMES.clear()
            name = _RUN_NAMES[args] = run_name(list(args))
        return {"path": name}
    return args  # type: ignore[no-any-return]


def _get_args(ev: Event) -> dict[str, Any] | None:
    found = ev._args
    if found.__class__ is tuple or found.__class__ is str:
        found = ev._args = made_args(found)
    return found  # type: ignore[no-any-return]


def _set_args(ev: Event, args: dict[str, Any] | None) -> None:
    ev._args = args


Event.args = property(_get_args, _set_args, doc="What the wording needs (a square, an amount...).")  # type: ignore[assignment]


Squares = tuple[tuple[int, int], ...]

#: a line of the log as the engine keeps it while a turn runs: ``(phase, step, robot, kind, args, data)``; made an
#: :class:`Event` (:func:`made_events`) when the turn's events are first read. ``args`` may be unmade (a square,
#: a beam's squares or name: see :class:`Event`); ``data`` may be the card a move was made under (``{"card": its
#: text}``)
LogEntry = tuple[Any, ...]


def made_events(log: list[LogEntry]) -> list[Event]:
    """The events of a log kept as :data:`LogEntry` lines."""
    return [Event(phase, step, robot, kind, args,
                  data if data is None or data.__class__ is dict else {"card": str(data)})
            for phase, step, robot, kind, args, data in log]


_PATTERNS: list[tuple[str, re.Pattern[str]]] = []


def _patterns() -> list[tuple[str, re.Pattern[str]]]:
    if not _PATTERNS:
        for kind, template in sorted(WORDING.items(), key=lambda item: item[1] == "{path}"):
            parts = re.split(r"\{(\w+)\}", template)
            regex = "".join(re.escape(p) if i % 2 == 0 else f"(?P<{p}>.+?)" for i, p in enumerate(parts))
            _PATTERNS.append((kind, re.compile(f"^{regex}$")))
    return _PATTERNS


def kind_of_text(text: str) -> tuple[str, dict[str, Any] | None]:
    """The old-form reader: an event's kind and args recovered from its words."""
    for kind, pattern in _patterns():
        m = pattern.match(text)
        if m:
            args = {k: int(v) if k in _INTS and v.isdigit() else v for k, v in m.groupdict().items()}
            return kind, args or None
    raise AssertionError(text)  # "{path}" matches anything


def read_event(d: dict[str, Any]) -> Event:
    """An event from its stored (contract) form: kind and args read from its words."""
    data = {k: v for k, v in d.items() if k not in FIXED_KEYS} or None
    kind, args = kind_of_text(str(d["text"]))
    return Event(d["phase"], d["step"], d.get("robot"), kind, args, data)
