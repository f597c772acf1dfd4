"""Board specs checked before the engine builds them, and what a course must offer to be raced on.

:func:`shape_problems` finds every field of a board spec that has the wrong type (a ``kind`` that is a
list or a table, ``void`` that is not a list, an unknown kind with a did-you-mean...) all at once, so
that a file from a GM or a scenario from a script never meets the engine as a traceback;
:func:`checked_build` builds a spec after that check and turns any other surprise into a
:class:`BoardError`; :func:`build_problems` lists every element error of a file, not just the first.

:func:`race_problems`: every flag reachable from every start square, in order (start -> flag 1 ->
flag 2 ...). ``referee board check`` and creating or starting a game use it.

A robot "walks" one square at a time round walls (fixed walls, both faces), off the board edge and void,
and round squares that destroy a robot entering them (pits, drains...). Belts, teleporters and the like
may carry a robot further, so the check never refuses a course a robot could walk; it refuses a flag
ringed by pits or walls.
"""

from __future__ import annotations

import re
from collections import deque
from itertools import pairwise
from typing import Any

from ..common.suggest import did_you_mean
from ..engine import KINDS, Board, BoardError, build_board
from ..engine.geometry import DC, DR

#: the most element errors one check lists (the file is built again after each)
MAX_ERRORS = 30


def _where(source: str, index: int, el: Any) -> str:
    if isinstance(el, dict) and isinstance(el.get("kind"), str) and isinstance(el.get("at"), str):
        return f"{source}: element {index + 1} ({el['kind']} at {el['at']})"
    return f"{source}: element {index + 1}"


def shape_problems(spec: Any, source: str) -> list[str]:
    """Every field of a board spec whose type is wrong, or whose element kind is unknown; empty when the
    engine may be given it."""
    if not isinstance(spec, dict):
        return [f"{source}: a board must be a table with width, height and elements"]
    problems = []
    void = spec.get("void", [])
    if not isinstance(void, list) or not all(isinstance(v, str) for v in void):
        problems.append(f"{source}: void must be a list of squares or runs such as [\"r1c1\", \"r2c1-r2c4\"], "
                        f"not {_short(void)}")
    elements = spec.get("elements", [])
    if not isinstance(elements, list):
        return [*problems, f"{source}: elements must be a list of tables, not {_short(elements)}"]
    for i, el in enumerate(elements):
        where = _where(source, i, el)
        if not isinstance(el, dict):
            problems.append(f"{where}: an element must be a table with kind and at, not {_short(el)}")
            continue
        kind = el.get("kind")
        if not isinstance(kind, str):
            problems.append(f"{where}: kind must be one word such as pit or belt, not {_short(kind)}")
        elif kind not in KINDS:
            hint = did_you_mean(kind, KINDS)
            problems.append(f"{where}: unknown element kind {kind!r}"
                            + (hint or " (see 'referee board kinds')"))
        if "at" in el and not isinstance(el["at"], str):
            problems.append(f"{where}: at must be a square or run such as r3c5 or r1c1-r1c6, not {_short(el['at'])}")
    return problems


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def checked_build(spec: Any, source: str) -> Board:
    """:func:`referee.engine.build_board` after :func:`shape_problems`; every failure a :class:`BoardError`."""
    problems = shape_problems(spec, source)
    if problems:
        raise BoardError(problems[0])
    try:
        return build_board(spec, source)
    except BoardError:
        raise
    except (TypeError, ValueError, KeyError, AttributeError, IndexError, OverflowError, RecursionError) as exc:
        raise BoardError(f"{source}: a field has a value of the wrong type ({type(exc).__name__}: "
                         f"{_short(str(exc))})") from None


_ELEMENT = re.compile(r": element (\d+)\b")


def build_problems(spec: Any, source: str, numbers: list[int] | None = None) -> tuple[Board | None, list[str]]:
    """Every error of ``spec`` (all shape problems; then each element error, the file being built again
    without the element that failed, up to :data:`MAX_ERRORS`), and the board built without the elements
    that failed (None when it could not be built at all). ``numbers``: the file's number of each element
    (0: an element of a placed board, not of this file); default 1, 2, 3..."""
    problems = shape_problems(spec, source)
    if problems:
        return None, problems
    assert isinstance(spec, dict)
    elements = list(spec.get("elements", []))
    # the file's element numbers of those still in
    numbers = list(numbers) if numbers is not None else list(range(1, len(elements) + 1))
    while len(problems) < MAX_ERRORS:
        try:
            board = checked_build({**spec, "elements": elements}, source)
        except BoardError as exc:
            message = str(exc)
            found = _ELEMENT.search(message)
            if found is None or not 1 <= int(found.group(1)) <= len(elements):
                return None, [*problems, message]
            k = int(found.group(1)) - 1
            label = f": element {numbers[k]}" if numbers[k] else ": an element of a placed board"
            problems.append(_ELEMENT.sub(label, message, count=1))
            del elements[k], numbers[k]
            continue
        return board, problems
    return None, problems

#: kinds whose square destroys a robot entering it at any time
DEADLY = ("pit", "drain", "smokestack", "black_hole")


def walkable_from(board: Board, start: tuple[int, int]) -> set[tuple[int, int]]:
    """The squares a robot can walk to from ``start`` one square at a time."""
    deadly = {sq for kind in DEADLY for sq in board.layer(kind)}
    seen = {start}
    todo = deque([start])
    while todo:
        sq = todo.popleft()
        for d in range(4):
            nxt = (sq[0] + DR[d], sq[1] + DC[d])
            if nxt in seen or board.wall(sq, d) or not board.on_board(nxt) or nxt in deadly:
                continue
            seen.add(nxt)
            todo.append(nxt)
    return seen


def _name(sq: tuple[int, int]) -> str:
    return f"r{sq[0]}c{sq[1]}"


def race_problems(board: Board) -> list[str]:
    """Why a course cannot be raced (empty: it can): a flag that cannot be walked to from a start square,
    or from the flag before it."""
    problems: list[str] = []
    if not board.flags:   # nothing to reach (a course without flags is refused by loading it)
        return problems
    numbers = sorted(board.flags)
    first = board.flags[numbers[0]]
    for number, start in sorted(board.starts.items()):
        if first not in walkable_from(board, start):
            problems.append(f"flag {numbers[0]} at {_name(first)} cannot be reached from start square {number} "
                            f"at {_name(start)}")
    for before, after in pairwise(numbers):
        here, there = board.flags[before], board.flags[after]
        if there not in walkable_from(board, here):
            problems.append(f"flag {after} at {_name(there)} cannot be reached from flag {before} at {_name(here)}")
    return problems
