"""Board and course files (TOML) in ``boards/``: finding, loading, and composing courses.

A board file holds ``width``, ``height`` and ``elements`` exactly as a scenario's inline board.
A course file (``kind = "course"``) places boards with ``[[place]]`` tables (``board``, ``at`` =
the course square of the placed board's south-west corner, ``turn`` = quarter turns clockwise)
and adds its own ``elements`` (flags, usually) in course coordinates. Squares no board covers
are void: beyond the edge. See docs/boards.md.
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..common.suggest import did_you_mean
from ..engine import Board, BoardError, parse_square
from ..engine.board_spec import offset_spec, rotate_spec
from ..engine.geometry import NotationError, squares_of
from .checks import build_problems, checked_build, race_problems, shape_problems


class BoardNotFound(LookupError):
    def __str__(self) -> str:
        return str(self.args[0])


#: the ``boards`` setting of this process's settings (see :func:`use_settings`)
_configured: list[Path] = []


def use_settings(settings: Any) -> None:
    """Look for boards in the folders of the ``boards`` setting of ``settings`` (a
    :class:`referee.common.config.Settings`) from now on, in this process; ``$REFEREE_BOARDS`` still wins."""
    _configured[:] = settings.board_dirs


def board_dirs() -> list[Path]:
    """Where board files are looked for: $REFEREE_BOARDS (os.pathsep-separated) when set, else the folders
    of the ``boards`` setting (:func:`use_settings`), then the shipped ones."""
    env = os.environ.get("REFEREE_BOARDS")
    dirs = [Path(p) for p in env.split(os.pathsep) if p] if env is not None else list(_configured)
    shipped = _shipped_dir()
    if shipped is not None:
        dirs.append(shipped)
    return dirs


@lru_cache(maxsize=1)
def _shipped_dir() -> Path | None:
    """The boards shipped with the package (looked up once a process)."""
    here = Path(__file__).resolve().parents[1]  # the referee package
    for candidate in (here / "_data" / "boards", here.parent / "boards"):
        if candidate.is_dir():
            return candidate
    return None


def find_board_file(name: str) -> Path:
    if not name or "/" in name or "\\" in name or name.startswith("."):
        raise BoardNotFound(f"bad board name {name!r}")
    for d in board_dirs():
        path = d / f"{name}.toml"
        if path.is_file():
            return path
    from ..common.suggest import closest

    near = closest(name, [n for n, _, _ in list_boards()])
    hint = f"did you mean {near}? " if near else ""
    raise BoardNotFound(f"no board or course named {name!r} ({hint}see 'referee board list')")


def list_boards() -> list[tuple[str, str, Path]]:
    """(name, kind, path) of every board and course file, first match of each name."""
    seen: dict[str, tuple[str, str, Path]] = {}
    for d in board_dirs():
        for path in sorted(d.glob("*.toml")):
            if path.stem not in seen:
                try:
                    kind = str(read_toml(path).get("kind", "board"))
                except BoardError:
                    kind = "broken"
                seen[path.stem] = (path.stem, kind, path)
    return sorted(seen.values())


def read_toml(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as fh:
            return tomllib.load(fh)
    except tomllib.TOMLDecodeError as exc:
        raise BoardError(f"{path}: not valid TOML: {exc}") from None


def board_spec(name: str, _stack: tuple[str, ...] = ()) -> dict[str, Any]:
    """The full spec of a board or course (a course composed into one big board spec)."""
    if name in _stack:
        raise BoardError(f"course {name!r} places itself ({' -> '.join((*_stack, name))})")
    path = find_board_file(name)
    data = read_toml(path)
    kind = data.get("kind", "board")
    if kind in ("board", "dock"):
        spec = dict(data)
        spec.setdefault("name", name)
        return spec
    if kind != "course":
        raise BoardError(f"{path}: kind must be 'board', 'dock' or 'course', not {kind!r}")
    return compose_course(name, path, data, (*_stack, name))


def compose_course(name: str, path: Path, data: dict[str, Any], stack: tuple[str, ...],
                   problems: list[str] | None = None) -> dict[str, Any]:
    """A course file composed into one board spec. The first error is a :class:`BoardError`; with
    ``problems`` (``referee board check``) every error is appended there instead, a place that fails is left
    out, and the spec is composed of what is left (its ``own_from``: the index of the course's own first
    element, ``own_numbers``: the file's number of each of its own elements still in)."""
    def fault(text: str) -> None:
        if problems is None:
            raise BoardError(text)
        problems.append(text)

    places = data.get("place")
    if not isinstance(places, list) or not places:
        fault(f"{path}: a course needs at least one [[place]] table")
        places = []
    extra = sorted(set(data) - {"name", "kind", "players", "description", "place", "elements", "comment"})
    for key in extra:
        fault(f"{path}: unknown course field {key!r}" + (did_you_mean(key, COURSE_FIELDS) or ""))
    elements: list[dict[str, Any]] = []
    parts: list[dict[str, str]] = []  # the boards placed, for elements acting on their own board only
    covered: dict[tuple[int, int], str] = {}
    for i, place in enumerate(places):
        try:
            _place(path, i, place, stack, covered, elements, parts)
        except BoardError as exc:
            fault(str(exc))
    own = data.get("elements", [])
    own_numbers = list(range(1, len(own) + 1)) if isinstance(own, list) else []
    shape = shape_problems({"elements": own}, str(path))
    if shape:
        fault(shape[0])
        assert problems is not None
        problems.extend(shape[1:])
        bad = {int(m.group(1)) for m in map(_ELEMENT_NO.search, shape) if m}
        own_numbers = [n for n in own_numbers if n not in bad]
        own = [own[n - 1] for n in own_numbers] if isinstance(own, list) and not any(
            "elements must be" in s for s in shape) else []
        own_numbers = own_numbers if own else []
    own_from = len(elements)
    elements.extend(own)
    players = data.get("players")
    if not (isinstance(players, list) and len(players) == 2 and all(isinstance(p, int) and not isinstance(p, bool)
                                                                   for p in players) and 1 <= players[0] <= players[1]):
        fault(f"{path}: players must be [min, max], whole numbers with 1 <= min <= max, not {players!r}")
        players = [1, 1]
    if not covered:
        fault(f"{path}: no board could be placed: nothing to draw")
        covered[(1, 1)] = "nothing"
    height = max(r for r, _ in covered)
    width = max(c for _, c in covered)
    void = [f"r{r}c{c}" for r, c in squares_of(width, height) if (r, c) not in covered]
    return {"name": data.get("name", name), "kind": "course", "players": players,
            "width": width, "height": height, "void": void, "boards": parts, "elements": elements,
            **({"own_from": own_from, "own_numbers": own_numbers} if problems is not None else {})}


#: the fields a course file may have (for did-you-mean)
COURSE_FIELDS = ("name", "kind", "players", "description", "place", "elements", "comment")
_ELEMENT_NO = re.compile(r": element (\d+)\b")


def _place(path: Path, i: int, place: Any, stack: tuple[str, ...], covered: dict[tuple[int, int], str],
           elements: list[dict[str, Any]], parts: list[dict[str, str]]) -> None:
    """Place ``place`` (the file's place ``i + 1``): its squares into ``covered``, its elements turned and
    moved into ``elements``, the board and its corners into ``parts`` (for elements acting on their own board
    only); a :class:`BoardError` when it cannot be placed (nothing is added then)."""
    where = f"{path}: place {i + 1}"
    if not isinstance(place, dict) or "board" not in place:
        raise BoardError(f"{where}: needs board = \"NAME\"")
    bad = sorted(set(place) - {"board", "at", "turn"})
    if bad:
        raise BoardError(f"{where}: unknown field {bad[0]!r}" + (did_you_mean(bad[0], ("board", "at", "turn"))
                                                                  or " (board, at, turn)"))
    try:
        sub_path = find_board_file(str(place["board"]))
        sub = board_spec(str(place["board"]), stack)
    except BoardNotFound as exc:
        raise BoardError(f"{where}: {exc}") from None
    if sub.get("kind") == "course":
        raise BoardError(f"{where}: {place['board']} is a course; a course places boards and docks only")
    checked_build(sub, str(sub_path))  # errors inside the placed board name its own file
    turn = place.get("turn", 0)
    if not isinstance(turn, int) or isinstance(turn, bool) or turn not in (0, 1, 2, 3):
        raise BoardError(f"{where}: turn must be 0, 1, 2 or 3 quarter turns clockwise, not {turn!r}")
    try:
        corner = parse_square(place.get("at", "r1c1"))
    except NotationError as exc:
        raise BoardError(f"{where}: {exc}") from None
    w, h = int(sub["width"]), int(sub["height"])
    tw, th = (h, w) if turn % 2 else (w, h)
    squares = {}
    for sq in squares_of(tw, th):
        at = (sq[0] + corner[0] - 1, sq[1] + corner[1] - 1)
        if at in covered:
            raise BoardError(f"{where}: {place['board']} overlaps {covered[at]} at r{at[0]}c{at[1]}")
        squares[at] = str(place["board"])
    covered.update(squares)
    parts.append({"name": str(place["board"]), "from": f"r{corner[0]}c{corner[1]}",
                  "to": f"r{corner[0] + th - 1}c{corner[1] + tw - 1}"})
    for el in sub.get("elements", []):
        turned = rotate_spec(el, w, h, turn) if turn else el
        elements.append(offset_spec(turned, corner[0] - 1, corner[1] - 1))


@lru_cache(maxsize=64)
def _load_cached(name: str, files_key: tuple[tuple[str, float], ...]) -> Board:
    path = find_board_file(name)
    spec = board_spec(name)
    board = checked_build(spec, f"{name} ({path})")
    if spec.get("kind") == "course":
        players = spec["players"]
        if len(board.starts) < players[1]:
            raise BoardError(f"{path}: {players[1]} players need start squares 1-{players[1]}, "
                             f"the course has {len(board.starts)}")
        if not board.flags:
            raise BoardError(f"{path}: a course needs at least one flag")
    return board


def load_board(name: str) -> Board:
    """A built board or course by name. Cached while no board file changes."""
    return _load_cached(name, _files_key())


def _files_key() -> tuple[tuple[str, float], ...]:
    """The name and modification time of every board file: a changed, added or removed file changes it."""
    key = []
    for d in board_dirs():
        with os.scandir(d) as entries:
            key += sorted((e.path, e.stat().st_mtime) for e in entries if e.name.endswith(".toml"))
    return tuple(key)


def check_board(target: str) -> tuple[str, Board | None, list[str]]:
    """``referee board check``: (the name, the board built of what is sound, or None when nothing could be,
    every problem found) for a board or course
    NAME, or a PATH to a board file (the boards a course file places are looked for beside it, then as
    usual). A course (or a board with flags and start squares) must also be raceable
    (:func:`referee.boards.checks.race_problems`)."""
    path = Path(target)
    if target.endswith(".toml") or os.sep in target or "/" in target:
        if not path.is_file():
            return target, None, [f"{target}: no such file"]
        name = path.stem
        with _boards_beside(path):
            return (name, *_problems_of(name, path))
    try:
        path = find_board_file(target)
    except BoardNotFound as exc:
        return target, None, [str(exc)]
    return (target, *_problems_of(target, path))


def _problems_of(name: str, path: Path) -> tuple[Board | None, list[str]]:
    source = f"{name} ({path})"
    try:
        data = read_toml(path)
        if data.get("kind", "board") == "course":
            return _course_problems(name, path, data)
        elif data.get("kind", "board") in ("board", "dock"):
            spec = dict(data)
            spec.setdefault("name", name)
        else:
            return None, [f"{path}: kind must be 'board', 'dock' or 'course', not {_short(data.get('kind'))}"]
    except (BoardError, BoardNotFound) as exc:
        return None, [str(exc)]
    board, problems = build_problems(spec, source)   # the board without the elements that failed
    if board is None:
        return None, problems
    if spec.get("kind") == "course":
        problems += _course_checks(board, spec, path)
    if board.flags and board.starts:
        problems += [f"{source}: {p}" for p in race_problems(board)]
    return board, problems


def _course_checks(board: Board, spec: dict[str, Any], path: Path | str) -> list[str]:
    """What a course needs beyond a board: start squares for its most players, and a flag."""
    problems: list[str] = []
    players = spec["players"]
    if len(board.starts) < players[1]:
        problems.append(f"{path}: {players[1]} players need start squares 1-{players[1]}, "
                        f"the course has {len(board.starts)}")
    if not board.flags:
        problems.append(f"{path}: a course needs at least one flag")
    return problems


def _course_problems(name: str, path: Path, data: dict[str, Any]) -> tuple[Board | None, list[str]]:
    """Every error of a course file in one run, its own elements numbered as in the file; the board built
    of what is sound (None when nothing could be), for ``board show`` to draw with the errors marked."""
    problems: list[str] = []
    spec = compose_course(name, path, data, (name,), problems)
    own_from, own_numbers = spec.pop("own_from"), spec.pop("own_numbers")
    numbers = [0] * own_from + own_numbers
    board, more = build_problems(spec, str(path), numbers=numbers)
    problems += more
    if board is not None:
        problems += _course_checks(board, spec, path)
        if board.flags and board.starts:
            problems += [f"{source_of(name, path)}: {p}" for p in race_problems(board)]
    return board, problems


def source_of(name: str, path: Path) -> str:
    return f"{name} ({path})"


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


@contextmanager
def _boards_beside(path: Path) -> Iterator[None]:
    """Board files beside ``path`` are found first while checking it."""
    old = os.environ.get("REFEREE_BOARDS")
    os.environ["REFEREE_BOARDS"] = os.pathsep.join(p for p in (str(path.resolve().parent), old) if p)
    try:
        yield
    finally:
        if old is None:
            del os.environ["REFEREE_BOARDS"]
        else:
            os.environ["REFEREE_BOARDS"] = old


def boards_table(rows: list[tuple[str, str, Path]]) -> str:
    """The Markdown table of docs/boards.md: every board and course, its size, players and description."""
    lines = ["| name | kind | size | players | what it is about |", "| --- | --- | --- | --- | --- |"]
    for name, kind, path in rows:
        data = read_toml(path)
        try:
            board = load_board(name)
            size = f"{board.width}x{board.height}"
        except (BoardError, BoardNotFound):
            size = "?"
        players = data.get("players")
        who = f"{players[0]}-{players[1]}" if isinstance(players, list) and len(players) == 2 else "-"
        what = str(data.get("description", "")).replace("|", "/")
        lines.append(f"| `{name}` | {kind} | {size} | {who} | {what} |")
    return "\n".join(lines)
