"""Element kinds: their fields, validation, timing steps and ASCII glyphs, registered in one place.

A kind module defines one or more :class:`Kind` objects; ``referee.engine.elements`` imports them
and registers each with a single line. A kind says which steps of the timing table it acts in
(:mod:`referee.engine.timing`; a step only it acts in is declared in its module with
``timing.declare``) and what it installs on the board (walls, hazards...).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .board import Board, Element
from .geometry import DIR_NAMES, NotationError, dir_name, parse_dir
from .hooks import Hook, HookError, check, hook_type
from .timing import PHASE, TURN

#: the eight compass ways a ``compass`` choice may name, clockwise from north
COMPASS = ("n", "ne", "e", "se", "s", "sw", "w", "nw")


@dataclass(frozen=True, slots=True)
class Field:
    """One field of an element: ``dir``, ``sides``, ``phases``, ``int``, ``choice`` or ``bool``."""

    name: str
    type: str
    required: bool = True
    default: Any = None
    choices: tuple[str, ...] = ()
    lo: int = 0
    hi: int = 0
    #: a ``choice`` whose values name compass ways (``n``, ``ne``...): they turn with the board
    compass: bool = False

    def parse(self, value: Any) -> Any:
        t = self.type
        if t == "dir":
            return parse_dir(value)
        if t == "sides":
            if isinstance(value, str):
                value = [value]
            if not isinstance(value, list) or not value:
                raise NotationError(f"{self.name} must be a list of sides such as [\"N\", \"E\"]")
            return tuple(sorted({parse_dir(v) for v in value}))
        if t == "phases":
            if not isinstance(value, list) or not value:
                raise NotationError(f"{self.name} must be a non-empty list of register phases 1-5")
            for v in value:
                if not isinstance(v, int) or isinstance(v, bool) or not 1 <= v <= 5:
                    raise NotationError(f"{self.name}: {v!r} is not a register phase 1-5")
            return tuple(sorted(set(value)))
        if t == "int":
            if not isinstance(value, int) or isinstance(value, bool) or not self.lo <= value <= self.hi:
                raise NotationError(f"{self.name} must be a whole number from {self.lo} to {self.hi}, not {value!r}")
            return value
        if t == "choice":
            if not isinstance(value, str) or value.lower() not in self.choices:
                raise NotationError(f"{self.name} must be one of {', '.join(self.choices)}, not {value!r}")
            return value.lower()
        if t == "bool":
            if not isinstance(value, bool):
                raise NotationError(f"{self.name} must be true or false, not {value!r}")
            return value
        raise AssertionError(t)

    def example(self) -> Any:
        """A raw (spec) value this field accepts."""
        if self.default is not None:
            return self.default
        return {"dir": "N", "sides": ["N"], "phases": [1], "int": self.lo, "choice": self.choices[0] if self.choices
                else "", "bool": False}[self.type]

    def describe(self) -> str:
        """The field as the board docs write it: ``count`` (1-3, default 1)."""
        name = f"`{self.name}`"
        if self.type == "sides":
            return f"{name}: list of `N` `E` `S` `W`"
        if self.type == "phases":
            return f"{name} (list of 1-5)"
        if self.type == "choice":
            return f"{name}: " + " or ".join(f"`{c}`" for c in self.choices)
        if self.type == "int":
            default = f", default {self.default}" if not self.required else ""
            span = f"{self.lo} or {self.hi}" if self.hi == self.lo + 1 else f"{self.lo}-{self.hi}"
            return f"{name} ({span}{default})"
        return name

    def dump(self, value: Any) -> Any:
        if self.type == "dir":
            return dir_name(value)
        if self.type == "sides":
            return [dir_name(v) for v in value]
        if self.type == "phases":
            return list(value)
        return value

    def rotate(self, value: Any, quarter_turns: int) -> Any:
        """A raw (spec) value turned with its board, clockwise."""
        if self.type == "dir":
            return DIR_NAMES[(parse_dir(value) + quarter_turns) % 4]
        if self.type == "sides":
            vals = [value] if isinstance(value, str) else value
            return [DIR_NAMES[(parse_dir(v) + quarter_turns) % 4] for v in vals]
        if self.compass and isinstance(value, str) and value.lower() in COMPASS:
            return COMPASS[(COMPASS.index(value.lower()) + 2 * quarter_turns) % 8]
        return value


@dataclass
class Kind:
    """An element kind.

    ``steps`` maps step ids of the timing table to board-wide handlers ``(ctx, phase)`` (or
    ``(ctx)`` for start and end of turn); ``hooks`` (made with :func:`~referee.engine.hooks.on`)
    act while robots execute cards and are installed at each element's square (a cross hook on
    all four sides of it); ``install`` adds anything else the element needs to the board's lookup
    tables (walls, numbered flags, hooks at other keys); ``glyph``
    gives the 1-3 characters of the ASCII view; ``group`` makes kinds exclusive on one square
    (two floor kinds cannot share a square).
    """

    name: str
    fields: tuple[Field, ...] = ()
    summary: str = ""
    group: str | None = None
    install: Callable[[Board, Element], None] | None = None
    steps: dict[str, Callable[..., None]] = field(default_factory=dict)
    hooks: tuple[Hook, ...] = ()
    glyph: Callable[[Element], str] = lambda e: "?"
    #: the drawing order where several elements share a square (the highest is drawn on top, in the ASCII view
    #: first), and in the pictures; one kind a rank (a second kind with a taken rank is refused at registration)
    rank: int = 0
    #: a one-line note for the ASCII legend; None means the glyph says it all
    legend: Callable[[Element], str] | None = None
    #: False for devices that stand up from the floor (pushers, crushers, laser mounts): a teleporter
    #: cannot land a robot on them
    flat: bool = True
    #: called once when the whole board is built, for tables that depend on other squares (ledges)
    finish: Callable[[Board], None] | None = None
    #: what it does, for the element table of docs/boards.md (markdown; the summary when empty)
    doc: str = ""
    #: its entry in the ASCII view's key line ("### pit"); empty: not in the key
    key: str = ""
    #: elements (specs with ``at``) a lone sample of this kind needs on its board to be valid, such as
    #: the other portal of a pair; the registry tests add them
    partners: tuple[dict[str, Any], ...] = ()
    #: robots cannot see into or through its square (fog, smoke): their lasers stop short of it, and a
    #: robot standing on it sees nothing (never fires)
    blocks_sight: bool = False

    def parse_fields(self, spec: dict[str, Any]) -> dict[str, Any]:
        allowed = {f.name for f in self.fields} | {"kind", "at", "comment"}
        extra = sorted(set(spec) - allowed)
        if extra:
            names = ", ".join(f.name for f in self.fields) or "none"
            raise NotationError(f"unknown field {extra[0]!r} for {self.name} (fields: {names})")
        out: dict[str, Any] = {}
        for f in self.fields:
            if f.name in spec:
                out[f.name] = f.parse(spec[f.name])
            elif f.required:
                raise NotationError(f"{self.name} needs field {f.name!r}")
            else:
                out[f.name] = f.default
        return out

    def dump_fields(self, values: dict[str, Any]) -> dict[str, Any]:
        return {f.name: f.dump(values[f.name]) for f in self.fields}

    def sample(self) -> dict[str, Any]:
        """Field values of a valid element of this kind (defaults, else the first allowed value)."""
        return {f.name: f.parse(f.example()) for f in self.fields}


KINDS: dict[str, Kind] = {}


def kinds_table() -> str:
    """The element table of docs/boards.md, made from the registry."""
    lines = ["| kind | fields | what it does |", "| --- | --- | --- |"]
    for kind in KINDS.values():
        fields = ", ".join(f.describe() for f in kind.fields) or "none"
        group = f" ({kind.group})" if kind.group else ""
        lines.append(f"| `{kind.name}`{group} | {fields} | {kind.doc or kind.summary} |")
    return "\n".join(lines)


def register(kind: Kind) -> Kind:
    """Add a kind to the registry; refused if any of its handlers is one the timing table cannot call."""
    if kind.name in KINDS:
        raise ValueError(f"element kind {kind.name!r} registered twice")
    same = [k.name for k in KINDS.values() if k.rank == kind.rank]
    if same:
        taken = {k.rank for k in KINDS.values()}
        free = min(r for r in range(kind.rank, kind.rank + len(taken) + 1) if r not in taken)
        raise ValueError(f"element kind {kind.name!r}: rank {kind.rank} is taken by {same[0]!r}; give it a rank of "
                         f"its own (the next free one is {free}: ranks order the drawing of a square)")
    try:
        for step_id, fn in kind.steps.items():
            if hook_type(step_id) not in (PHASE, TURN):
                raise HookError(f"step {step_id!r} acts while robots move: give its handler in Kind.hooks")
            check(step_id, fn)
        for hook in kind.hooks:
            check(hook.step, hook.fn, hook.type)
    except HookError as exc:
        raise HookError(f"kind {kind.name!r}: {exc}") from None
    KINDS[kind.name] = kind
    return kind


