"""Squares, directions and the r#c# notation.

A square is a ``(row, col)`` tuple, 1-based; row 1 is the southernmost row and
column 1 the westernmost. Directions are ints 0-3 (N, E, S, W) so turning is
arithmetic modulo 4.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

Square = tuple[int, int]

N, E, S, W = 0, 1, 2, 3
DIR_NAMES = "NESW"
#: the ASCII arrow of each direction
ARROWS = "^>v<"
DR = (1, 0, -1, 0)
DC = (0, 1, 0, -1)


class NotationError(ValueError):
    """A square, run or direction that cannot be read."""


def parse_dir(text: object) -> int:
    if isinstance(text, str) and len(text.strip()) == 1 and text.strip().upper() in DIR_NAMES:
        return DIR_NAMES.index(text.strip().upper())
    raise NotationError(f"bad direction {text!r} (expected one of N, E, S, W)")


def dir_name(d: int) -> str:
    return DIR_NAMES[d]


def step(sq: Square, d: int, n: int = 1) -> Square:
    return (sq[0] + DR[d] * n, sq[1] + DC[d] * n)


def opposite(d: int) -> int:
    return (d + 2) % 4


_SQUARE = re.compile(r"^\s*r(\d+)\s*c(\d+)\s*$", re.IGNORECASE)
_RUN = re.compile(r"^\s*r(\d+)\s*c(\d+)\s*-\s*r(\d+)\s*c(\d+)\s*$", re.IGNORECASE)


def parse_square(text: object) -> Square:
    if isinstance(text, str):
        m = _SQUARE.match(text)
        if m and int(m.group(1)) >= 1 and int(m.group(2)) >= 1:
            return (int(m.group(1)), int(m.group(2)))
    raise NotationError(f"bad square {text!r} (expected r<row>c<col>, e.g. r3c4)")


def parse_run(text: object) -> list[Square]:
    """One square (``r3c4``) or a straight run (``r1c3-r6c3``), in the order written."""
    if isinstance(text, str):
        m = _RUN.match(text)
        if m:
            r1, c1, r2, c2 = (int(g) for g in m.groups())
            if min(r1, c1, r2, c2) < 1:
                raise NotationError(f"bad run {text!r}: rows and columns start at 1")
            if r1 != r2 and c1 != c2:
                raise NotationError(f"run {text!r} is not straight (same row or same column expected)")
            if r1 == r2:
                sgn = 1 if c2 >= c1 else -1
                return [(r1, c) for c in range(c1, c2 + sgn, sgn)]
            sgn = 1 if r2 >= r1 else -1
            return [(r, c1) for r in range(r1, r2 + sgn, sgn)]
    return [parse_square(text)]


def square_name(sq: Square) -> str:
    return f"r{sq[0]}c{sq[1]}"


def run_name(squares: list[Square]) -> str:
    """Squares in one row or column as the report writes them: ``r4-6c7``, ``r4c5-7``, ``r4c7``."""
    rows = sorted({s[0] for s in squares})
    cols = sorted({s[1] for s in squares})
    if len(rows) == 1 and len(cols) == 1:
        return square_name(squares[0])
    if len(cols) == 1:
        return f"r{rows[0]}-{rows[-1]}c{cols[0]}"
    return f"r{rows[0]}c{cols[0]}-{cols[-1]}"


def rotate_square(sq: Square, width: int, height: int, quarter_turns: int) -> Square:
    """Where ``sq`` of a width x height board lands when the board turns clockwise."""
    r, c = sq
    for _ in range(quarter_turns % 4):
        # clockwise: north becomes east; the old west edge becomes the north edge
        r, c = width - c + 1, r
        width, height = height, width
    return (r, c)


def squares_of(width: int, height: int) -> Iterator[Square]:
    for r in range(1, height + 1):
        for c in range(1, width + 1):
            yield (r, c)
