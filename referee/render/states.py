"""The floor as it is at each picture of a turn: a piston up or down, a door open or shut, a barricade's
hits, a flamer lit, as the elements' modules declare (:mod:`referee.engine.looks`).

The course's floor is drawn once, every element in its resting look (:func:`.frames.floor`). A picture
whose elements look otherwise is that floor with the squares that differ drawn again: each such square
(a *patch*: the square with its neighbours' elements, walls and beams, cut to the square) is drawn once per
look and kept with the board, and each set of differing squares is kept as a whole floor too, so a door
board's five register floors are drawn once for the life of the board.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field

from PIL import Image, ImageDraw

from ..engine import Board, Element
from ..engine.geometry import Square
from ..engine.looks import LOOKS, Phase, look_of, resting
from ..engine.state import BoardState
from .board_image import paint_floor
from .board_memo import board_memo
from .colours import BACKGROUND
from .layout import Layout

#: the squares that differ from the resting floor, each with the looks of its elements
Changes = tuple[tuple[Square, tuple[Hashable, ...]], ...]


@dataclass(slots=True)
class _Stateful:
    #: square -> its elements whose look can change
    squares: dict[Square, list[Element]]
    #: square -> its elements' resting looks
    rest: dict[Square, tuple[Hashable, ...]]
    #: (cell, square, looks) -> the square drawn so
    patches: dict[tuple[int, Square, tuple[Hashable, ...]], Image.Image] = field(default_factory=dict)


def _stateful(board: Board) -> _Stateful:
    memo = board_memo(board, "stateful")
    got: _Stateful | None = memo.get(None)
    if got is None:
        squares: dict[Square, list[Element]] = {}
        for kind in sorted(LOOKS):
            for sq, els in board.layers.get(kind, {}).items():
                squares.setdefault(sq, []).extend(els)
        squares = dict(sorted(squares.items()))
        rest = {sq: tuple(resting(el) for el in els) for sq, els in squares.items()}
        got = memo[None] = _Stateful(squares, rest)
    return got


def has_looks(board: Board) -> bool:
    """Whether any element of the board can look otherwise during a turn."""
    return bool(_stateful(board).squares)


def changes(board: Board, phase: Phase, state: BoardState) -> Changes:
    """The squares whose elements look otherwise in ``phase`` with ``state`` than on the resting floor."""
    st = _stateful(board)
    out = []
    for sq, els in st.squares.items():
        now = tuple(look_of(el, phase, state) for el in els)
        if now != st.rest[sq]:
            out.append((sq, now))
    return tuple(out)


def patch(board: Board, cell: int, sq: Square, now: tuple[Hashable, ...]) -> Image.Image:
    """Square ``sq`` of the floor (its grid line included) with its elements in the looks ``now`` (kept)."""
    st = _stateful(board)
    key = (cell, sq, now)
    got = st.patches.get(key)
    if got is None:
        # drawn where the floor has it (a shifted drawing rounds some edges otherwise), then cut out
        lay = Layout(board.width, board.height, cell)
        x, y = lay.origin(sq)
        canvas = Image.new("RGB", (x + cell + 1, y + cell + 1), BACKGROUND)
        near = {(sq[0] + dr, sq[1] + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)}
        looks = {id(el): look for el, look in zip(st.squares[sq], now, strict=True)}
        paint_floor(ImageDraw.Draw(canvas), lay, board, near, looks)
        got = st.patches[key] = canvas.crop((x, y, x + cell + 1, y + cell + 1))
    return got


def draw_changes(img: Image.Image, board: Board, cell: int, found: Changes) -> None:
    """Put the squares of ``found`` on ``img`` (a copy of the floor at ``cell``)."""
    lay = Layout(board.width, board.height, cell)
    for sq, now in found:
        img.paste(patch(board, cell, sq, now), lay.origin(sq))
