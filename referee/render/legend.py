"""The key to the pictures: every element kind on the course (drawn by its own painter) and the marks a
stage picture uses (robots, paths, shots, damage, wrecks, the fan of robots sharing a square, ghosts on a
course with graves), then the marks of the statuses a robot may carry on the course (its elements' and the
option cards').

Made from the board, the kind registry and the statuses' declarations (``shown.status(..., mark=...)``), so a
new kind or status appears in the key with no edit here; drawn once per board and kept with its floor.
"""

from __future__ import annotations

import io
from collections.abc import Callable

from PIL import Image, ImageDraw

from ..engine import Board, Element, Robot
from .board_memo import board_memo
from .colours import BACKGROUND, BEAM, FLOOR, GRID, HIT, INK, WALL, WHITE
from .fonts import font
from .ghosts import draw_ghost
from .layout import CELL, Layout
from .marks import Badge, Marks, Wreck
from .painters import ACTING, ACTIVE, draw_order, painter_for
from .players import Player
from .robots import arrowhead, dashed_line, draw_badges, draw_robot, draw_wrecks, robot_places
from .status_marks import keyed_marks

#: grey for the sample robots of the key
SAMPLE = Player("sample", "sample", "grey", "#5a6b7d", "R")



def kind_label(name: str) -> str:
    """What the key calls a kind: its name in words (``one_way_wall`` -> ``one way wall``)."""
    return name.replace("_", " ")


def _items(board: Board) -> list[tuple[str, object]]:
    """(label, what to draw) of every entry: a kind's name, ``wall``, ``beam`` or a mark's painter."""
    under, over = draw_order(list(board.layers))
    items: list[tuple[str, object]] = [(kind_label(k), k) for k in under + over if k != "wall"]
    if board.blocked:
        items.append(("wall", "wall"))
    if "laser" in board.layers:
        items.append(("laser beam", "beam"))
    if any(kind in board.layers for kind in ACTING):
        items.append(("acting in the register shown", _mark_acting))
    items += [(label, fn) for label, fn in MARKS]
    if "grave" in board.layers:  # ghosts rise from graves
        items.insert(len(items) - len(MARKS) + 3, ("ghost (its robot's colour)", _mark_ghost))
        items.insert(len(items) - len(MARKS) + 8, ("a ghost's glare hit a robot", _mark_glare))
    items += [(words, _status_mark(mark)) for mark, words in keyed_marks(board)]
    return items


def legend_entries(board: Board) -> list[str]:
    """The labels of the key, in order: the board's kinds (as they are drawn), then the marks."""
    return [label for label, _ in _items(board)]


def _sample_element(kind: str, board: Board) -> Element:
    els = next(iter(board.layers[kind].values()))
    return Element(kind, (1, 1), dict(els[0].fields))


def _mark_acting(d: ImageDraw.ImageDraw, lay: Layout) -> None:
    """The frame round a square whose element acts in the register a picture shows."""
    x, y = lay.origin((1, 1))
    s = lay.cell
    d.rectangle([x + 1, y + 1, x + s - 1, y + s - 1], outline=ACTIVE, width=2)


def _mark_robot(d: ImageDraw.ImageDraw, lay: Layout, virtual: bool = False, options: bool = False,
                marks: tuple[str, ...] = ()) -> None:
    cx, cy = lay.centre((1, 1))
    draw_robot(d, cx, cy, lay.cell, SAMPLE.rgb, 1, virtual, "R", options, marks)


def _status_mark(mark: str) -> Callable[[ImageDraw.ImageDraw, Layout], None]:
    """The sample robot carrying one status, its mark drawn as on the board."""
    return lambda d, lay: _mark_robot(d, lay, marks=(mark,))


def _mark_path(d: ImageDraw.ImageDraw, lay: Layout, own: bool) -> None:
    """A path across the sample square as the stage pictures draw one: a ring where it sets off, a line
    (solid, or dashed) and an arrowhead."""
    s = lay.cell
    x, y = lay.origin((1, 1))
    a, b = (x + s * 0.2, y + s / 2), (x + s - 2, y + s / 2)
    w = max(3, s // 9)
    if own:
        d.line([a, b], fill=SAMPLE.rgb, width=w)
    else:
        dashed_line(d, a, b, SAMPLE.rgb, w, s * 0.12, s * 0.08)
    arrowhead(d, a, b, s * 0.24, SAMPLE.rgb)
    r = s * 0.14
    d.ellipse([a[0] - r, a[1] - r, a[0] + r, a[1] + r], fill=WHITE, outline=SAMPLE.rgb, width=max(2, w - 1))


def _mark_shot(d: ImageDraw.ImageDraw, lay: Layout) -> None:
    s = lay.cell
    x, y = lay.origin((1, 1))
    d.line([(x + 2, y + s / 2), (x + s * 0.8, y + s / 2)], fill=SAMPLE.rgb, width=max(4, s // 6))
    d.line([(x + 2, y + s / 2), (x + s * 0.8, y + s / 2)], fill=BEAM, width=max(2, s // 14))
    r = s * 0.18
    cx, cy = x + s * 0.8, y + s / 2
    d.ellipse([cx - r, cy - r, cx + r, cy + r], fill=HIT, outline=BEAM)


def _mark_badge(d: ImageDraw.ImageDraw, lay: Layout, damage: int) -> None:
    x, y = lay.origin((1, 1))
    s = lay.cell
    sub = Layout.square_at(x - s // 4, y + s // 4, s)
    draw_badges(d, sub, Marks(badges=[Badge(SAMPLE.robot, (1, 1), damage)]), {})


def _mark_wreck(d: ImageDraw.ImageDraw, lay: Layout) -> None:
    draw_wrecks(d, lay, Marks(wrecks=[Wreck(SAMPLE.robot, (1, 1), "pit")]), [SAMPLE])


def _mark_ghost(d: ImageDraw.ImageDraw, lay: Layout) -> None:
    cx, cy = lay.centre((1, 1))
    draw_ghost(d, cx, cy, lay.cell, SAMPLE.rgb, 1, "R")


def _mark_glare(d: ImageDraw.ImageDraw, lay: Layout) -> None:
    s = lay.cell
    x, y = lay.origin((1, 1))
    dashed_line(d, (x + 2, y + s / 2), (x + s * 0.8, y + s / 2), SAMPLE.rgb, max(3, s // 10), s * 0.2, s * 0.14)
    r = s * 0.16
    cx, cy = x + s * 0.8, y + s / 2
    d.ellipse([cx - r, cy - r, cx + r, cy + r], fill=HIT, outline=SAMPLE.rgb, width=2)


def _mark_fan(d: ImageDraw.ImageDraw, lay: Layout) -> None:
    robots = [Robot(n, (1, 1), 0, virtual=True) for n in ("a", "b", "c")]
    places = robot_places(lay, robots, {})
    x, y = lay.origin((1, 1))
    d.rectangle([x + 1, y + 1, x + lay.cell - 1, y + lay.cell - 1], outline=INK, width=2)
    for p in places.values():
        draw_robot(d, p.cx, p.cy, p.size, SAMPLE.rgb, 0, True, "")


MARKS = (
    ("robot (nose: facing)", lambda d, lay: _mark_robot(d, lay)),
    ("virtual robot", lambda d, lay: _mark_robot(d, lay, virtual=True)),
    ("robots sharing a square", _mark_fan),
    ("holds option cards", lambda d, lay: _mark_robot(d, lay, options=True)),
    ("moved by its card", lambda d, lay: _mark_path(d, lay, True)),
    ("pushed or carried", lambda d, lay: _mark_path(d, lay, False)),
    ("laser hit a robot", _mark_shot),
    ("HP lost", lambda d, lay: _mark_badge(d, lay, 2)),
    ("HP repaired", lambda d, lay: _mark_badge(d, lay, -1)),
    ("destroyed here", _mark_wreck),
)


def legend_image(board: Board, cell: int = CELL, columns: int = 2) -> Image.Image:
    """The key for this board's pictures (RGB), drawn once per board and cell size."""
    per_board = board_memo(board, "legends")
    got = per_board.get(cell)
    if got is not None:
        return got
    items = _items(board)
    s = cell
    f = font(max(9, s * 11 // 32))
    entry_w = max(s * 7, s + 12 + max(round(f.getlength(label)) for label, _ in items))  # the longest label whole
    row_h = s + 6
    rows = -(-len(items) // columns)
    title_h = max(18, s * 5 // 8)
    img = Image.new("RGB", (entry_w * columns + 8, title_h + rows * row_h + 4), BACKGROUND)
    d = ImageDraw.Draw(img)
    d.text((6, title_h / 2), "Key", font=font(max(10, s * 13 // 32), True), fill=INK, anchor="lm")
    for i, (label, what) in enumerate(items):
        x = 6 + (i // rows) * entry_w
        y = title_h + (i % rows) * row_h
        lay = Layout.square_at(x, y, s)
        d.rectangle([x, y, x + s, y + s], fill=FLOOR, outline=GRID)
        if what == "wall":
            d.rectangle([x + s - 3, y, x + s + 1, y + s], fill=WALL)
        elif what == "beam":
            d.line([(x, y + s / 2), (x + s, y + s / 2)], fill=BEAM, width=max(2, s // 14))
        elif isinstance(what, str):
            painter_for(what)(d, lay, _sample_element(what, board))
        else:
            what(d, lay)  # type: ignore[operator]
        d.text((x + s + 6, y + s / 2), label, font=f, fill=INK, anchor="lm")
    per_board[cell] = img
    return img


def legend_png(board: Board, cell: int = CELL) -> bytes:
    """The key as a PNG, made once per board and cell size."""
    per_board = board_memo(board, "legend PNGs")
    data = per_board.get(cell)
    if data is None:
        buf = io.BytesIO()
        legend_image(board, cell).quantize(colors=128).save(buf, format="PNG", compress_level=9)
        data = per_board[cell] = buf.getvalue()
    return data
