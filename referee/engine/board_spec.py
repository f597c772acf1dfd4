"""A board (or a whole course) built and validated from its spec: the scenario's inline board or a board file."""

from __future__ import annotations

from typing import Any

from .board import Board, BoardError, Element
from .geometry import NotationError, Square, parse_run, parse_square, rotate_square, square_name
from .kinds import KINDS, Kind


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
    board = Board(str(spec.get("name", source)), width, height, void, KINDS)
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
