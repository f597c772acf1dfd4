"""Pixel geometry of the pictures: where a square of a board lies at a cell size (row 1 at the bottom,
column 1 at the left, as in the r#c# notation), and the small helpers that place shapes in a square."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..engine.geometry import Square

CELL = 32

Pt = tuple[float, float]
#: image-space unit vectors of N, E, S, W (image y grows downwards)
UNIT: tuple[Pt, ...] = ((0, -1), (1, 0), (0, 1), (-1, 0))


@dataclass(frozen=True, slots=True)
class Layout:
    """Pixel geometry of one board at one cell size."""

    width: int
    height: int
    cell: int
    #: pixels under the board for the status strip
    strip: int = 0
    #: where the picture starts on the image it is drawn on (the key draws one-square pictures anywhere)
    ox: int = 0
    oy: int = 0

    @classmethod
    def square_at(cls, x: int, y: int, cell: int) -> Layout:
        """A one-square layout whose square (1, 1) has its top-left pixel at (x, y)."""
        plain = cls(1, 1, cell)
        return cls(1, 1, cell, 0, x - plain.left, y - plain.top)

    @property
    def title(self) -> int:
        return max(18, self.cell * 5 // 8)

    @property
    def band(self) -> tuple[int, int]:
        """Height of the column-label bands, width of the row-label bands."""
        return max(14, self.cell * 7 // 16), max(24, self.cell * 7 // 8)

    @property
    def left(self) -> int:
        return self.band[1]

    @property
    def top(self) -> int:
        return self.title + self.band[0]

    @property
    def size(self) -> tuple[int, int]:
        return (self.left * 2 + self.width * self.cell,
                self.top + self.band[0] + self.height * self.cell + self.strip)

    def origin(self, sq: Square) -> tuple[int, int]:
        """Top-left pixel of a square."""
        return (self.ox + self.left + (sq[1] - 1) * self.cell, self.oy + self.top + (self.height - sq[0]) * self.cell)

    def centre(self, sq: Square) -> Pt:
        x, y = self.origin(sq)
        return (x + self.cell / 2, y + self.cell / 2)


def turned(points: Sequence[Pt], d: int, cx: float, cy: float) -> list[Pt]:
    """Points drawn for facing N, turned to face ``d`` about (cx, cy) (relative coordinates in)."""
    out = []
    for x, y in points:
        for _ in range(d % 4):
            x, y = -y, x
        out.append((cx + x, cy + y))
    return out


def side_line(lay: Layout, sq: Square, side: int, inset: float = 0.0) -> tuple[Pt, Pt]:
    """The two ends of a square's side (``inset`` pixels inside the square)."""
    x, y = lay.origin(sq)
    s = lay.cell
    if side == 0:
        return (x, y + inset), (x + s, y + inset)
    if side == 2:
        return (x, y + s - inset), (x + s, y + s - inset)
    if side == 1:
        return (x + s - inset, y), (x + s - inset, y + s)
    return (x + inset, y), (x + inset, y + s)
