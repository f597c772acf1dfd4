"""A board (or a whole course) with its elements, built and validated from its spec."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from .geometry import DC, DR, NotationError, Square, opposite, parse_run, parse_square, rotate_square, square_name, step
from .hooks import MOVE_TYPES, HookError, check
from .kinds import KINDS, BoardError, Kind
from .timing import CROSS, ORDER, TIMING


@dataclass(frozen=True, slots=True)
class Element:
    """One element on one square (a run in a spec becomes one element per square)."""

    kind: str
    at: Square
    fields: dict[str, Any]

    def __getitem__(self, key: str) -> Any:
        return self.fields[key]


class Board:
    """The floor a turn is played on: size, elements by kind and square, and lookup tables."""

    def __init__(self, name: str, width: int, height: int, void: Iterable[Square] = ()) -> None:
        self.name = name
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
        return all(KINDS[k].flat for k, layer in self.layers.items() if sq in layer)

    @property
    def flag_count(self) -> int:
        return len(self.flags)

    # -- building --------------------------------------------------------------------------------
    def add(self, element: Element) -> None:
        self.layers.setdefault(element.kind, {}).setdefault(element.at, []).append(element)
        kind = KINDS[element.kind]
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
            for kind in KINDS.values():
                fns = [*kind.steps.values(), *(h.fn for h in kind.hooks)]
                (floor if kind.group == "floor" else other).update(fns)
            found = self.cache["floor handlers"] = frozenset(floor - other)
        return found

    def plan(self) -> dict[str, list[Callable[..., None]]]:
        """Step id -> the element handlers that act in it on this board (steps nobody owns are absent)."""
        if self._plan is None:
            plan: dict[str, list[Callable[..., None]]] = {}
            # kinds in registration order, so two kinds acting in one step act in the same order on every board
            present = [kind for name, kind in KINDS.items() if name in self.layers]
            for st in TIMING:
                handlers = [k.steps[st.id] for k in present if st.id in k.steps]
                # one handler may serve several kinds (belt and express): run it once
                unique = list(dict.fromkeys(handlers))
                if unique:
                    plan[st.id] = unique
            self._plan = plan
        return self._plan


def _where(source: str, index: int, spec: Any) -> str:
    if isinstance(spec, dict):
        return f"{source}: element {index + 1} ({spec.get('kind', '?')} at {spec.get('at', '?')})"
    return f"{source}: element {index + 1}"


def build_board(spec: Any, source: str = "board") -> Board:
    """Build a board from its spec (the scenario's inline board, or a loaded board/course file)."""
    if not isinstance(spec, dict):
        raise BoardError(f"{source}: a board must be an object with width, height and elements")
    extra = sorted(set(spec) - {"width", "height", "elements", "name", "void", "comment", "kind",
                                "players", "description", "boards"})
    if extra:
        raise BoardError(f"{source}: unknown board field {extra[0]!r}")
    width, height = spec.get("width"), spec.get("height")
    for label, val in (("width", width), ("height", height)):
        if not isinstance(val, int) or isinstance(val, bool) or not 1 <= val <= 200:
            raise BoardError(f"{source}: {label} must be a whole number from 1 to 200, not {val!r}")
    assert isinstance(width, int) and isinstance(height, int)
    try:
        void = [sq for item in spec.get("void", []) for sq in parse_run(item)]
    except NotationError as exc:
        raise BoardError(f"{source}: void: {exc}") from None
    board = Board(str(spec.get("name", source)), width, height, void)
    board.spec = spec
    _parts(board, spec.get("boards", []), source)
    raw = spec.get("elements", [])
    if not isinstance(raw, list):
        raise BoardError(f"{source}: elements must be a list")
    groups: dict[tuple[Square, str], str] = {}
    for i, el in enumerate(raw):
        where = _where(source, i, el)
        if not isinstance(el, dict):
            raise BoardError(f"{where}: an element must be an object with kind and at")
        kind = KINDS.get(el.get("kind"))  # type: ignore[arg-type]
        if kind is None:
            raise BoardError(f"{where}: unknown element kind {el.get('kind')!r} "
                             f"(known: {', '.join(sorted(KINDS))})")
        try:
            if "at" not in el:
                raise NotationError("needs field 'at'")
            squares = parse_run(el["at"])
            values = kind.parse_fields(el)
        except NotationError as exc:
            raise BoardError(f"{where}: {exc}") from None
        for sq in squares:
            if not board.on_board(sq):
                raise BoardError(f"{where}: {square_name(sq)} is off the {width}x{height} board")
            _check_group(where, kind, sq, groups)
            try:
                board.add(Element(kind.name, sq, values))
            except NotationError as exc:
                raise BoardError(f"{where}: {exc}") from None
    _check_numbers(board, source)
    for kind_name in list(board.layers):
        finish = KINDS[kind_name].finish
        if finish is not None:
            try:
                finish(board)
            except NotationError as exc:
                raise BoardError(f"{source}: {exc}") from None
    return board


def _parts(board: Board, parts: Any, source: str) -> None:
    """The boards a course is made of: ``[{"name": "Cross", "from": "r1c1", "to": "r12c12"}, ...]``, each a
    rectangle of squares (corners included); a square in none of them belongs to the first."""
    if not isinstance(parts, list):
        raise BoardError(f"{source}: boards must be a list of {{name, from, to}}")
    for i, part in enumerate(parts):
        where = f"{source}: boards {i + 1}"
        if not isinstance(part, dict) or set(part) - {"name", "from", "to"} or not {"from", "to"} <= set(part):
            raise BoardError(f"{where}: a board of a course is {{name, from, to}} (two corner squares)")
        try:
            (r1, c1), (r2, c2) = parse_square(part["from"]), parse_square(part["to"])
        except NotationError as exc:
            raise BoardError(f"{where}: {exc}") from None
        for r in range(min(r1, r2), max(r1, r2) + 1):
            for c in range(min(c1, c2), max(c1, c2) + 1):
                if (r, c) in board.squares:
                    board.parts[(r, c)] = i


def _check_numbers(board: Board, source: str) -> None:
    """Flags and start squares are numbered 1..n with no gap, and none lies in a pit."""
    for label, numbered in (("flag", board.flags), ("start", board.starts)):
        if numbered and sorted(numbered) != list(range(1, len(numbered) + 1)):
            raise BoardError(f"{source}: {label}s must be numbered 1 to {len(numbered)} without a gap, "
                             f"not {', '.join(map(str, sorted(numbered)))}")
        for number, sq in numbered.items():
            if board.one("pit", sq) is not None:
                raise BoardError(f"{source}: {label} {number} at {square_name(sq)} is in a pit")


def _check_group(where: str, kind: Kind, sq: Square, groups: dict[tuple[Square, str], str]) -> None:
    """Kinds of one group (the floor: belts, pits, gears, repair sites...) cannot share a square."""
    if kind.group is None:
        return
    prev = groups.get((sq, kind.group))
    if prev is not None:
        raise BoardError(f"{where}: {square_name(sq)} already has a {prev}")
    groups[(sq, kind.group)] = kind.name


# -- turning and placing specs (courses are made of boards placed with rotation) ------------------
def rotate_spec(el: dict[str, Any], width: int, height: int, quarter_turns: int) -> dict[str, Any]:
    """An element spec of a width x height board, turned clockwise with the board."""
    kind = KINDS.get(el.get("kind"))  # type: ignore[arg-type]
    if kind is None:
        return dict(el)
    out = dict(el)
    at = el.get("at")
    if isinstance(at, str):
        squares = parse_run(at)
        ends = [rotate_square(squares[0], width, height, quarter_turns),
                rotate_square(squares[-1], width, height, quarter_turns)]
        out["at"] = square_name(ends[0]) if len(squares) == 1 else f"{square_name(ends[0])}-{square_name(ends[1])}"
    for f in kind.fields:
        if f.name in el:
            out[f.name] = f.rotate(el[f.name], quarter_turns)
    return out


def offset_spec(el: dict[str, Any], drow: int, dcol: int) -> dict[str, Any]:
    out = dict(el)
    at = el.get("at")
    if isinstance(at, str):
        squares = parse_run(at)
        moved = [(r + drow, c + dcol) for r, c in (squares[0], squares[-1])]
        out["at"] = square_name(moved[0]) if len(squares) == 1 else f"{square_name(moved[0])}-{square_name(moved[1])}"
    return out
