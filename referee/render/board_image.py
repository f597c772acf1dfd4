"""Pictures of the course: the floor with every element on it, and the pictures a turn report shows.

The floor (every element, the grid and the r#c# labels) is drawn once per board and cell size and kept
(:func:`.frames.floor`); robots and what happened to them are drawn on copies of it (:mod:`.robots`,
:mod:`.frames`).

Row 1 is at the bottom and column 1 at the left, as in the r#c# notation. Each kind is drawn by its own
painter when the renderer has one, else from its registry metadata, in the order its rank gives it
(:mod:`.painters`). The colours are in :mod:`.colours`, the pixel geometry in :mod:`.layout`; their names
are importable from here too.
"""

from __future__ import annotations

from collections.abc import Container, Hashable, Mapping

from PIL import Image, ImageDraw

from ..engine import Board
from ..engine.geometry import DC, DR, Square, opposite
from .colours import (
    BACKGROUND,
    BEAM,
    DAMAGE,
    FLOOR,
    GRID,
    HEAL,
    HIT,
    INK,
    LABEL,
    LEDGE,
    OPTION,
    RGB,
    VOID,
    VOID_HATCH,
    WALL,
    WHITE,
    WRECK,
)
from .fonts import font
from .kept import kept_image
from .layout import CELL, UNIT, Layout, Pt, side_line, turned
from .painters import PAINTERS, Painter, draw_order, paint_default, paint_look, painter_for, under_beams

__all__ = [
    "BACKGROUND", "BEAM", "CELL", "DAMAGE", "FLOOR", "GRID", "HEAL", "HIT", "INK", "OPTION", "PAINTERS", "RGB",
    "WALL", "WHITE", "WRECK", "Layout", "Painter", "Pt", "beam_path", "draw_floor", "draw_floor_anew", "draw_order",
    "frame_keys", "frame_phase", "paint_default", "painter_for", "turned", "under_beams",
]


def beam_path(board: Board, start: Square, d: int) -> list[Square]:
    """Squares a board laser's beam covers on the empty floor: its mount square, on to a wall or the edge."""
    return list(board.ray(start, d))


def _draw_beams(d: ImageDraw.ImageDraw, lay: Layout, board: Board) -> None:
    s = lay.cell
    for sq, els in sorted(board.layer("laser").items()):
        for el in els:
            dirn, count = el["dir"], el["count"]
            path = beam_path(board, sq, dirn)
            a = side_line(lay, path[0], opposite(dirn))
            b = side_line(lay, path[-1], dirn)
            ax, ay = (a[0][0] + a[1][0]) / 2, (a[0][1] + a[1][1]) / 2
            bx, by = (b[0][0] + b[1][0]) / 2, (b[0][1] + b[1][1]) / 2
            px, py = UNIT[(dirn + 1) % 4]
            gap = max(3, s // 9)
            for i in range(count):
                off = (i - (count - 1) / 2) * gap
                d.line([(ax + px * off, ay + py * off), (bx + px * off, by + py * off)], fill=BEAM,
                       width=max(2, s // 14))


def _draw_ledges(d: ImageDraw.ImageDraw, lay: Layout, board: Board, only: Container[Square] | None = None) -> None:
    levels = board.layer("level")
    if not levels:
        return
    ramps = board.layer("ramp")

    def height(sq: Square) -> int:
        els = levels.get(sq)
        return els[0]["height"] if els else 0

    w = max(2, lay.cell // 10)
    for r in range(1, board.height + 1):
        for c in range(1, board.width + 1):
            sq = (r, c)
            if not board.on_board(sq) or (only is not None and sq not in only):
                continue
            for side in range(4):
                other = (r + DR[side], c + DC[side])
                if not board.on_board(other) or height(other) >= height(sq):
                    continue
                lower_ramp = ramps.get(other)
                if lower_ramp and lower_ramp[0]["dir"] == opposite(side):
                    continue
                a, b = side_line(lay, sq, side, w / 2)
                d.line([a, b], fill=LEDGE, width=w)


def _draw_walls(d: ImageDraw.ImageDraw, lay: Layout, board: Board, only: Container[Square] | None = None) -> None:
    w = max(3, lay.cell // 8)
    for r, c, side in sorted(board.blocked):
        if not board.on_board((r, c)) or (only is not None and (r, c) not in only):
            continue
        (x1, y1), (x2, y2) = side_line(lay, (r, c), side, 0)
        half = w / 2
        d.rectangle([min(x1, x2) - half, min(y1, y2) - half, max(x1, x2) + half, max(y1, y2) + half], fill=WALL)


def _draw_labels(d: ImageDraw.ImageDraw, lay: Layout) -> None:
    band_h, band_w = lay.band
    f = font(max(8, lay.cell * 5 // 16))
    total_w = lay.size[0]
    bottom = lay.top + lay.height * lay.cell
    for c in range(1, lay.width + 1):
        x = lay.left + (c - 0.5) * lay.cell
        d.text((x, lay.top - band_h / 2), f"c{c}", font=f, fill=LABEL, anchor="mm")
        d.text((x, bottom + band_h / 2), f"c{c}", font=f, fill=LABEL, anchor="mm")
    for r in range(1, lay.height + 1):
        y = lay.top + (lay.height - r + 0.5) * lay.cell
        d.text((band_w / 2, y), f"r{r}", font=f, fill=LABEL, anchor="mm")
        d.text((total_w - band_w / 2, y), f"r{r}", font=f, fill=LABEL, anchor="mm")


#: element (by ``id``) -> the look it is drawn in, where not its resting look
Looks = Mapping[int, Hashable]


def _paint_layer(d: ImageDraw.ImageDraw, lay: Layout, board: Board, kind: str,
                 only: Container[Square] | None = None, looks: Looks | None = None) -> None:
    paint = painter_for(kind)
    for sq, els in sorted(board.layers[kind].items()):
        if only is not None and sq not in only:
            continue
        for el in els:
            if looks and id(el) in looks:
                paint_look(d, lay, el, looks[id(el)])
            else:
                paint(d, lay, el)


def draw_floor(board: Board, cell: int = CELL) -> Image.Image:
    """The course with every element and the r#c# labels, without robots (RGB); read back from disk when a
    process drew it before (:mod:`.kept`)."""
    return kept_image(board, cell, "floor", lambda: draw_floor_anew(board, cell))


def draw_floor_anew(board: Board, cell: int = CELL) -> Image.Image:
    """:func:`draw_floor`, drawn from nothing."""
    lay = Layout(board.width, board.height, cell)
    img = Image.new("RGB", lay.size, BACKGROUND)
    paint_floor(ImageDraw.Draw(img), lay, board)
    _draw_labels(ImageDraw.Draw(img), lay)
    return img


def paint_floor(d: ImageDraw.ImageDraw, lay: Layout, board: Board, only: Container[Square] | None = None,
                looks: Looks | None = None) -> None:
    """Paint the squares, the elements, the ledges, the beams and the walls (``only``: of these squares; the
    beams all); ``looks``: elements drawn as they look at a moment of a turn."""
    cell = lay.cell
    for r in range(1, board.height + 1):
        for c in range(1, board.width + 1):
            if only is not None and (r, c) not in only:
                continue
            x, y = lay.origin((r, c))
            if board.on_board((r, c)):
                d.rectangle([x, y, x + cell, y + cell], fill=FLOOR, outline=GRID)
            else:
                d.rectangle([x, y, x + cell, y + cell], fill=VOID)
                for k in range(-cell, cell, max(4, cell // 4)):
                    d.line([(x + max(0, k), y + max(0, -k)), (x + min(cell, cell + k), y + min(cell, cell - k))],
                           fill=VOID_HATCH, width=1)
    under, over = draw_order(list(board.layers))
    for kind in under:
        _paint_layer(d, lay, board, kind, only, looks)
    _draw_ledges(d, lay, board, only)
    _draw_beams(d, lay, board)
    for kind in over:
        _paint_layer(d, lay, board, kind, only, looks)
    _draw_walls(d, lay, board, only)


# -- the pictures of a turn ------------------------------------------------------------------------
def frame_keys(phases_run: int, end_of_turn: bool) -> list[tuple[str, str]]:
    """(key, caption) of the pictures a turn report shows: the start, after each stage run, the end."""
    keys = [("start", "start of turn")]
    keys += [(f"stage{k}", f"after stage {k}") for k in range(1, phases_run + 1)]
    if end_of_turn:
        keys.append(("end", "end of turn"))
    return keys


def frame_phase(key: str) -> int | str:
    """The events a picture shows the marks of: ``stage2`` -> 2, ``start`` and ``end`` -> themselves."""
    return int(key[5:]) if key.startswith("stage") else key


#: names that moved to :mod:`.frames` and :mod:`.robots`, still importable from here for older callers
_MOVED = {"frame": "frames", "frame_rgb": "frames", "png_bytes": "png", "gif_bytes": "gif", "floor": "frames",
          "Frame": "frames", "turn_frames": "frames", "draw_robot": "robots",
          "draw_robots": "robots"}


def __getattr__(name: str) -> object:
    where = _MOVED.get(name)
    if where is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(f"{__package__}.{where}"), name)
