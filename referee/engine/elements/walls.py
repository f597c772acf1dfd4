"""Walls: block movement and lasers, on both faces of the square side."""

from __future__ import annotations

from ..board import Board, Element
from ..kinds import Field, Kind


def _install(board: Board, el: Element) -> None:
    for side in el["sides"]:
        board.add_wall(el.at, side)


WALL = Kind(
    name="wall",
    doc=('walls on those sides of the square. A wall belongs to the side, not the square: `N` of r4c4 is the '
         'same wall as `S` of r5c4, so write it once. Walls stop robots, pushes and every laser.'),
    fields=(Field("sides", "sides"),),
    summary="walls on the given sides of the square; a wall on N of r4c4 is the wall on S of r5c4",
    install=_install,
    glyph=lambda e: "",
)
