"""A board (or a whole course) with its elements and lookup tables; built from its spec by :mod:`.board_spec`."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from .geometry import DC, DR, Square, opposite, step
from .hooks import MOVE_TYPES, Hook, HookError, check
from .timing import CROSS, ORDER, TIMING


class BoardError(ValueError):
    """A board, course or scenario board that cannot be built; the message names where."""


@dataclass(frozen=True, slots=True)
class Element:
    """One element on one square (a run in a spec becomes one element per square)."""

    kind: str
    at: Square
    fields: dict[str, Any]

    def __getitem__(self, key: str) -> Any:
        return self.fields[key]


class KindView(Protocol):
    """What a board needs of an element kind (:class:`referee.engine.kinds.Kind`): the board is given the kinds'
    table when it is built, so it does not import the registry that types its handlers with it."""

    @property
    def group(self) -> str | None: ...
    @property
    def install(self) -> Callable[[Board, Element], None] | None: ...
    @property
    def steps(self) -> Mapping[str, Callable[..., None]]: ...
    @property
    def hooks(self) -> tuple[Hook, ...]: ...
    @property
    def flat(self) -> bool: ...


class Board:
    """The floor a turn is played on: size, elements by kind and square, and lookup tables."""

    def __init__(self, name: str, width: int, height: int, void: Iterable[Square] = (),
                 kinds: Mapping[str, KindView] | None = None) -> None:
        self.name = name
        #: the element kinds, in registration order (the registry's table, given by :mod:`.board_spec`)
        self.kinds: Mapping[str, KindView] = kinds if kinds is not None else {}
        self.width = width
        self.height = height
        self.void: frozenset[Square] = frozenset(void)
        #: every square of the board (not the void)
        self.squares: frozenset[Square] = frozenset(
            (r, c) for r in range(1, height + 1) for c in range(1, width + 1)) - self.void
        self.layers: dict[str, dict[Square, list[Element]]] = {}
        #: (row, col, side) for every wall side, both faces
        self.blocked: set[tuple[int, int, int]] = set()
        #: register phase -> (row, col, side) faces shut in that phase only (doors): they stop lasers then
        self.phase_walls: dict[int, set[tuple[int, int, int]]] = {}
        #: hook type -> step id -> key (square, or (row, col, side) for cross hooks) -> handlers
        self.hooks: dict[str, dict[str, dict[Any, list[Callable[..., Any]]]]] = {}
        self._dispatch: dict[str, dict[Any, tuple[Callable[..., Any], ...]]] = {}
        self._ordered: dict[str, dict[Any, list[tuple[int, Callable[..., Any]]]]] = {}
        self._move_hooks: dict[str, dict[Any, tuple[Callable[..., Any], ...]]] | None = None
        self._rays: dict[tuple[Square, int, bool], tuple[Square, ...]] = {}
        self.flags: dict[int, Square] = {}
        self.starts: dict[int, Square] = {}
        self.spec: dict[str, Any] = {}
        #: derived tables a kind builds once (e.g. belts merged from belt and express)
        self.cache: dict[str, Any] = {}
        #: the board of a course each square belongs to (its index in the spec's ``boards``); empty: one board
        self.parts: dict[Square, int] = {}
        self._plan: dict[str, list[Callable[..., None]]] | None = None

    # -- lookups ---------------------------------------------------------------------------------
    def on_board(self, sq: Square) -> bool:
        return sq in self.squares

    def part(self, sq: Square) -> int:
        """Which board of the course ``sq`` lies on (0 on a single board): the reach of elements acting on
        their own board (:mod:`.reach`)."""
        return self.parts.get(sq, 0)

    def within_part(self, source: Square, squares: Iterable[Square]) -> tuple[Square, ...]:
        """``squares`` (a line outward from ``source``) up to the first one on another board of the course."""
        if not self.parts:
            return tuple(squares)
        own = self.part(source)
        out = []
        for sq in squares:
            if self.part(sq) != own:
                break
            out.append(sq)
        return tuple(out)

    def wall(self, sq: Square, d: int) -> bool:
        return (sq[0], sq[1], d) in self.blocked

    def ray(self, start: Square, d: int, include_start: bool = True) -> tuple[Square, ...]:
        """The squares a beam from ``start`` toward ``d`` crosses on the empty floor, up to a wall or
        the edge: the one beam tracer of the engine, the ASCII view and the pictures (built once
        per start, direction and board)."""
        key = (start, d, include_start)
        found = self._rays.get(key)
        if found is None:
            squares: list[Square] = []
            cur = start
            if include_start and self.on_board(cur):
                squares.append(cur)
            if not include_start or squares:
                while (cur[0], cur[1], d) not in self.blocked:
                    cur = (cur[0] + DR[d], cur[1] + DC[d])
                    if not self.on_board(cur):
                        break
                    squares.append(cur)
            found = self._rays[key] = tuple(squares)
        return found

    def layer(self, kind: str) -> dict[Square, list[Element]]:
        return self.layers.get(kind, {})

    def one(self, kind: str, sq: Square) -> Element | None:
        els = self.layers.get(kind)
        if els:
            found = els.get(sq)
            if found:
                return found[0]
        return None

    def elements_at(self, sq: Square) -> list[Element]:
        return [e for layer in self.layers.values() for e in layer.get(sq, ())]

    def has(self, kind: str) -> bool:
        return kind in self.layers

    def flat(self, sq: Square) -> bool:
        """No device standing on the square (what a teleporter may land on)."""
        return all(self.kinds[k].flat for k, layer in self.layers.items() if sq in layer)

    @property
    def flag_count(self) -> int:
        return len(self.flags)

    # -- building --------------------------------------------------------------------------------
    def add(self, element: Element) -> None:
        self.layers.setdefault(element.kind, {}).setdefault(element.at, []).append(element)
        kind = self.kinds[element.kind]
        for hook in kind.hooks:
            if hook.type == CROSS:
                for side in range(4):
                    self.add_hook(hook.step, (element.at[0], element.at[1], side), hook.fn, CROSS)
            else:
                self.add_hook(hook.step, element.at, hook.fn, hook.type)
        if kind.install:
            kind.install(self, element)

    def add_wall(self, sq: Square, d: int) -> None:
        self.blocked.add((sq[0], sq[1], d))
        other = step(sq, d)
        self.blocked.add((other[0], other[1], opposite(d)))

    def add_phase_wall(self, sq: Square, d: int, phases: Iterable[int]) -> None:
        """A side (both faces) that is a wall for lasers in ``phases`` only; its kind blocks robots itself."""
        other = step(sq, d)
        for p in phases:
            self.phase_walls.setdefault(p, set()).update({(sq[0], sq[1], d), (other[0], other[1], opposite(d))})

    def add_side_hook(self, step_id: str, sq: Square, d: int, fn: Callable[..., Any]) -> None:
        """Hook ``fn`` into a "robots move" cross step at both faces of the side ``d`` of ``sq`` (a robot
        crossing it either way, or pushed or carried against it)."""
        other = step(sq, d)
        self.add_hook(step_id, (sq[0], sq[1], d), fn)
        self.add_hook(step_id, (other[0], other[1], opposite(d)), fn)

    def add_hook(self, step_id: str, key: Any, fn: Callable[..., Any], type_: str | None = None) -> None:
        """Hook ``fn`` into a "robots move" step at a square (a side for cross hooks); checked."""
        t = check(step_id, fn, type_)
        if t not in MOVE_TYPES:
            raise HookError(f"{step_id!r}: {t} handlers act board-wide (Kind.steps), not at a square")
        fns = self.hooks.setdefault(t, {}).setdefault(step_id, {}).setdefault(key, [])
        if fn not in fns:
            fns.append(fn)
        self._dispatch.pop(t, None)
        self._ordered.pop(t, None)
        self._move_hooks = None

    def dispatch(self, type_: str) -> dict[Any, tuple[Callable[..., Any], ...]]:
        """Key -> every handler of this hook type there, in table order (built once per type)."""
        found = self._dispatch.get(type_)
        if found is None:
            found = self._dispatch[type_] = {key: tuple(fn for _, fn in pairs)
                                             for key, pairs in self.ordered(type_).items()}
        return found

    def move_hooks(self) -> dict[str, dict[Any, tuple[Callable[..., Any], ...]]]:
        """Hook type -> :meth:`dispatch` of that type, for every type of the robots' moves (built once)."""
        found = self._move_hooks
        if found is None:
            found = self._move_hooks = {t: self.dispatch(t) for t in MOVE_TYPES}
        return found

    def ordered(self, type_: str) -> dict[Any, list[tuple[int, Callable[..., Any]]]]:
        """Key -> (table position of the step, handler) for this hook type, in table order."""
        cached = self._ordered.get(type_)
        if cached is not None:
            return cached
        out: dict[Any, list[tuple[int, Callable[..., Any]]]] = {}
        for step_id, table in sorted(self.hooks.get(type_, {}).items(), key=lambda item: ORDER[item[0]]):
            for key, fns in table.items():
                out.setdefault(key, []).extend((ORDER[step_id], fn) for fn in fns)
        self._ordered[type_] = out
        return out

    def floor_handlers(self) -> frozenset[Callable[..., Any]]:
        """Handlers (board-wide and move hooks) that only floor kinds use: a flying robot is out of their
        reach (a handler a non-floor kind shares, such as the flags' and repair sites', still acts)."""
        found = self.cache.get("floor handlers")
        if found is None:
            floor: set[Callable[..., Any]] = set()
            other: set[Callable[..., Any]] = set()
            for kind in self.kinds.values():
                fns = [*kind.steps.values(), *(h.fn for h in kind.hooks)]
                (floor if kind.group == "floor" else other).update(fns)
            found = self.cache["floor handlers"] = frozenset(floor - other)
        return found

    def plan(self) -> dict[str, list[Callable[..., None]]]:
        """Step id -> the element handlers that act in it on this board (steps nobody owns are absent)."""
        if self._plan is None:
            plan: dict[str, list[Callable[..., None]]] = {}
            # kinds in registration order, so two kinds acting in one step act in the same order on every board
            present = [kind for name, kind in self.kinds.items() if name in self.layers]
            for st in TIMING:
                handlers = [k.steps[st.id] for k in present if st.id in k.steps]
                # one handler may serve several kinds (belt and express): run it once
                unique = list(dict.fromkeys(handlers))
                if unique:
                    plan[st.id] = unique
            self._plan = plan
        return self._plan
