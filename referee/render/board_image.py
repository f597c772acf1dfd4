"""Pictures of the course: the colours, the pixel layout, and the floor with every element on it.

The floor (every element, the grid and the r#c# labels) is drawn once per board and cell size and kept
(:func:`.frames.floor`); robots and what happened to them are drawn on copies of it (:mod:`.robots`,
:mod:`.frames`).

Row 1 is at the bottom and column 1 at the left, as in the r#c# notation. Each kind is drawn by its own
painter when the renderer has one, else from its registry metadata (:func:`paint_default`), in the order
its rank gives it.
"""

from __future__ import annotations

import colorsys
import hashlib
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from ..engine import Board, Element
from ..engine.geometry import DC, DR, Square, opposite
from ..engine.kinds import KINDS
from .fonts import font

CELL = 32

RGB = tuple[int, int, int]
BACKGROUND: RGB = (247, 247, 244)
LABEL: RGB = (90, 90, 90)
FLOOR: RGB = (212, 214, 210)
GRID: RGB = (172, 174, 170)
VOID: RGB = (128, 132, 138)
VOID_HATCH: RGB = (112, 116, 122)
PIT: RGB = (16, 16, 16)
PIT_RIM: RGB = (62, 62, 62)
BELT_BG: RGB = (240, 224, 140)
BELT_FG: RGB = (150, 108, 0)
EXPRESS_BG: RGB = (158, 198, 240)
EXPRESS_FG: RGB = (18, 64, 160)
REPAIR_BG: RGB = (184, 226, 168)
WRENCH: RGB = (28, 96, 38)
START_BG: RGB = (202, 210, 228)
START_FG: RGB = (56, 76, 140)
CRUSHER_BG: RGB = (92, 92, 92)
CRUSHER_TEETH: RGB = (196, 196, 196)
CRUSHER_TEXT: RGB = (255, 222, 0)
GEAR_BODY: RGB = (150, 150, 150)
GEAR_EDGE: RGB = (70, 70, 70)
GEAR_RIGHT: RGB = (24, 140, 40)
GEAR_LEFT: RGB = (200, 36, 36)
PUSHER: RGB = (244, 192, 0)
INK: RGB = (24, 24, 24)
WALL: RGB = (34, 34, 34)
BEAM: RGB = (232, 28, 28)
EMITTER: RGB = (130, 0, 0)
FLAG_CLOTH: RGB = (255, 255, 255)
FLAG_TEXT: RGB = (190, 0, 0)
WATER: RGB = (160, 196, 226)
WAVE: RGB = (100, 146, 200)
TELEPORTER: RGB = (126, 56, 170)
RANDOMIZER_BG: RGB = (228, 204, 240)
LEDGE: RGB = (122, 78, 28)
RAMP_BG: RGB = (214, 196, 164)
UNKNOWN: RGB = (60, 60, 60)
WHITE: RGB = (255, 255, 255)
OPTION: RGB = (240, 190, 20)
DAMAGE: RGB = (200, 16, 16)
HEAL: RGB = (26, 140, 50)
HIT: RGB = (255, 236, 80)
WRECK: RGB = (60, 60, 60)

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


def _side_line(lay: Layout, sq: Square, side: int, inset: float = 0.0) -> tuple[Pt, Pt]:
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


# -- the floor's painters: one per element kind --------------------------------------------------
Painter = Callable[[ImageDraw.ImageDraw, Layout, Element], None]


def _tile(d: ImageDraw.ImageDraw, lay: Layout, sq: Square, fill: RGB) -> None:
    x, y = lay.origin(sq)
    d.rectangle([x + 1, y + 1, x + lay.cell - 1, y + lay.cell - 1], fill=fill)


def paint_pit(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    x, y = lay.origin(el.at)
    s = lay.cell
    d.rectangle([x + 1, y + 1, x + s - 1, y + s - 1], fill=PIT_RIM)
    m = max(3, s // 7)
    d.rectangle([x + m, y + m, x + s - m, y + s - m], fill=PIT)


def _belt_arrow(d: ImageDraw.ImageDraw, lay: Layout, el: Element, colour: RGB, heads: int) -> None:
    s = lay.cell
    cx, cy = lay.centre(el.at)
    w = s * 0.07
    d.polygon(turned([(-w, s * 0.46), (w, s * 0.46), (w, -s * 0.1), (-w, -s * 0.1)], el["dir"], cx, cy), fill=colour)
    for i in range(heads):
        tip = -s * 0.44 + i * s * 0.3
        d.polygon(turned([(0, tip), (s * 0.26, tip + s * 0.26), (-s * 0.26, tip + s * 0.26)], el["dir"], cx, cy),
                  fill=colour)


def paint_belt(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    _tile(d, lay, el.at, BELT_BG)
    _belt_arrow(d, lay, el, BELT_FG, 1)


def paint_express(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    _tile(d, lay, el.at, EXPRESS_BG)
    _belt_arrow(d, lay, el, EXPRESS_FG, 2)


def _wrench(d: ImageDraw.ImageDraw, cx: float, cy: float, size: float, angle: float, fill: RGB, bg: RGB) -> None:
    """A wrench: a handle with an open jaw at one end, turned ``angle`` degrees."""
    a = math.radians(angle)
    ux, uy = math.cos(a), math.sin(a)
    half = size / 2
    x1, y1 = cx - ux * half * 0.7, cy - uy * half * 0.7
    x2, y2 = cx + ux * half * 0.55, cy + uy * half * 0.55
    d.line([(x1, y1), (x2, y2)], fill=fill, width=max(2, round(size / 7)))
    r = size * 0.2
    hx, hy = cx + ux * half * 0.62, cy + uy * half * 0.62
    d.ellipse([hx - r, hy - r, hx + r, hy + r], fill=fill)
    j = r * 0.55
    jx, jy = hx + ux * r * 0.55, hy + uy * r * 0.55
    d.ellipse([jx - j, jy - j, jx + j, jy + j], fill=bg)


def paint_repair(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    _tile(d, lay, el.at, REPAIR_BG)
    cx, cy = lay.centre(el.at)
    s = lay.cell * 0.8
    if el["wrenches"] >= 2:
        _wrench(d, cx, cy, s, -45, WRENCH, REPAIR_BG)
        _wrench(d, cx, cy, s, -135, WRENCH, REPAIR_BG)
    else:
        _wrench(d, cx, cy, s, -45, WRENCH, REPAIR_BG)


def paint_start(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    x, y = lay.origin(el.at)
    s = lay.cell
    _tile(d, lay, el.at, START_BG)
    d.rectangle([x + 3, y + 3, x + s - 3, y + s - 3], outline=START_FG, width=1)
    d.text((x + s / 2, y + s / 2), str(el["number"]), font=font(max(9, s * 7 // 16), True), fill=START_FG,
           anchor="mm")


def paint_gear(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    cx, cy = lay.centre(el.at)
    s = lay.cell
    teeth = []
    for i in range(16):
        a = math.pi * 2 * i / 16
        r = s * (0.4 if i % 2 == 0 else 0.3)
        teeth.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    d.polygon(teeth, fill=GEAR_BODY, outline=GEAR_EDGE)
    right = el["turn"] == "right"
    colour = GEAR_RIGHT if right else GEAR_LEFT
    r = s * 0.2
    w = max(2, s // 12)
    # three quarters of a circle; the head where the turn goes (image angles grow clockwise)
    first, last = (200, 470) if right else (70, 340)
    d.arc([cx - r, cy - r, cx + r, cy + r], start=first, end=last, fill=colour, width=w)
    head = math.radians(last if right else first)
    sign = 1 if right else -1
    tx, ty = cx + r * math.cos(head), cy + r * math.sin(head)
    vx, vy = -math.sin(head) * sign, math.cos(head) * sign
    nx, ny = math.cos(head), math.sin(head)
    h = s * 0.15
    d.polygon([(tx + vx * h, ty + vy * h), (tx + nx * h * 0.7, ty + ny * h * 0.7),
               (tx - nx * h * 0.7, ty - ny * h * 0.7)], fill=colour)


def paint_crusher(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    x, y = lay.origin(el.at)
    s = lay.cell
    _tile(d, lay, el.at, CRUSHER_BG)
    n = 4
    w = (s - 2) / n
    for i in range(n):
        a = x + 1 + i * w
        d.polygon([(a, y + 1), (a + w, y + 1), (a + w / 2, y + s * 0.24)], fill=CRUSHER_TEETH)
        d.polygon([(a, y + s - 1), (a + w, y + s - 1), (a + w / 2, y + s * 0.76)], fill=CRUSHER_TEETH)
    d.text((x + s / 2, y + s / 2), " ".join(map(str, el["phases"])), font=font(max(8, s * 5 // 16), True),
           fill=CRUSHER_TEXT, anchor="mm")


def paint_pusher(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    """A plate on the wall it is mounted on (opposite the way it pushes), with its phases."""
    s = lay.cell
    mount = opposite(el["dir"])
    depth = max(5, s * 7 // 32)
    (x1, y1), (x2, y2) = _side_line(lay, el.at, mount, 0)
    (x3, y3), (x4, y4) = _side_line(lay, el.at, mount, depth)
    xs, ys = [x1, x2, x3, x4], [y1, y2, y3, y4]
    pad = s * 0.12
    box = [min(xs), min(ys), max(xs), max(ys)]
    if mount in (0, 2):
        box[0] += pad
        box[2] -= pad
    else:
        box[1] += pad
        box[3] -= pad
    d.rectangle(box, fill=PUSHER, outline=INK)
    cx, cy = lay.centre(el.at)
    # the phases, in the middle of the square, just off the plate
    ox, oy = UNIT[el["dir"]]
    d.text((cx - ox * s * 0.06, cy - oy * s * 0.06), "".join(map(str, el["phases"])),
           font=font(max(8, s * 9 // 32), True), fill=INK, anchor="mm", stroke_width=2, stroke_fill=PUSHER)


def paint_water(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    x, y = lay.origin(el.at)
    s = lay.cell
    _tile(d, lay, el.at, WATER)
    for k in (0.3, 0.55, 0.8):
        pts = [(x + 3 + i * (s - 6) / 8, y + s * k + (2 if i % 2 else -1)) for i in range(9)]
        d.line(pts, fill=WAVE, width=1)


def paint_current(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    paint_water(d, lay, el)
    _belt_arrow(d, lay, el, EXPRESS_FG, 1)


def paint_teleporter(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    cx, cy = lay.centre(el.at)
    s = lay.cell
    for k, w in ((0.42, 2), (0.28, 2), (0.12, 0)):
        r = s * k
        if w:
            d.ellipse([cx - r, cy - r, cx + r, cy + r], outline=TELEPORTER, width=w)
        else:
            d.ellipse([cx - r, cy - r, cx + r, cy + r], fill=TELEPORTER)


def paint_randomizer(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    _tile(d, lay, el.at, RANDOMIZER_BG)
    cx, cy = lay.centre(el.at)
    d.text((cx, cy), "?", font=font(max(10, lay.cell * 5 // 8), True), fill=TELEPORTER, anchor="mm")


def paint_ramp(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    _tile(d, lay, el.at, RAMP_BG)
    s = lay.cell
    cx, cy = lay.centre(el.at)
    for k in (-0.3, -0.1, 0.1, 0.3):
        d.line(turned([(-s * 0.42, s * k), (s * 0.42, s * k)], el["dir"], cx, cy), fill=(188, 168, 134), width=1)
    _belt_arrow(d, lay, el, LEDGE, 1)


def paint_level(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    x, y = lay.origin(el.at)
    d.text((x + 3, y + 2), f"{el['height']}", font=font(max(7, lay.cell // 4), True), fill=LEDGE, anchor="la")


def paint_flag(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    x, y = lay.origin(el.at)
    s = lay.cell
    px = x + s * 0.24
    d.line([(px, y + s * 0.1), (px, y + s * 0.9)], fill=INK, width=max(2, s // 14))
    d.ellipse([px - s * 0.12, y + s * 0.84, px + s * 0.12, y + s * 0.94], fill=INK)
    cloth = [px, y + s * 0.1, x + s * 0.92, y + s * 0.62]
    d.rectangle(cloth, fill=FLAG_CLOTH, outline=INK, width=1)
    d.text(((cloth[0] + cloth[2]) / 2 + 1, (cloth[1] + cloth[3]) / 2), str(el["number"]),
           font=font(max(9, s * 13 // 32), True), fill=FLAG_TEXT, anchor="mm")


#: a barricade's crates (issue 13): a brown bar on each of its sides, inside the square
BARRICADE = (150, 96, 40)


def paint_barricade(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    w = max(3, lay.cell // 7)
    for side in el["sides"]:
        (x1, y1), (x2, y2) = _side_line(lay, el.at, side, w / 2 + 1)
        d.line([(x1, y1), (x2, y2)], fill=BARRICADE, width=w)


def _kind_colour(name: str, light: float) -> RGB:
    """A stable colour of its own for a kind the renderer has no look for (from its name)."""
    h = int(hashlib.sha256(name.encode()).hexdigest()[:6], 16)
    hue = (h % 360) / 360
    r, g, b = colorsys.hls_to_rgb(hue, light, 0.45)
    return (round(r * 255), round(g * 255), round(b * 255))


def paint_default(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    """How a kind with no painter of its own is drawn, from its registry metadata alone.

    A floor kind (``group="floor"``) gets a tile in a colour of its own; a kind with ``sides`` a bar on
    each of them; a ``dir`` field a small arrow; and every kind its ASCII glyph on top.
    """
    kind = KINDS.get(el.kind)
    fields = el.fields
    s = lay.cell
    if kind is not None and kind.group == "floor":
        _tile(d, lay, el.at, _kind_colour(el.kind, 0.84))
    if "sides" in fields:
        w = max(3, s // 9)
        for side in fields["sides"]:
            a, b = _side_line(lay, el.at, side, w / 2 + 1)
            d.line([a, b], fill=_kind_colour(el.kind, 0.35), width=w)
    if isinstance(fields.get("dir"), int):
        cx, cy = lay.centre(el.at)
        tip = -s * 0.44
        d.polygon(turned([(0, tip), (s * 0.14, tip + s * 0.16), (-s * 0.14, tip + s * 0.16)], fields["dir"], cx, cy),
                  fill=UNKNOWN)
    glyph = kind.glyph(el).strip() if kind else el.kind[:3]
    if glyph:
        cx, cy = lay.centre(el.at)
        d.text((cx, cy), glyph, font=font(max(8, s * 3 // 8), True), fill=UNKNOWN, anchor="mm",
               stroke_width=1, stroke_fill=BACKGROUND)


def paint_nothing(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    """Walls are drawn from the board's wall table, after everything else (see :func:`draw_floor`)."""


def paint_emitter(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    """A board laser's mount on the wall behind it (its beam is drawn with the beams)."""
    s = lay.cell
    cx, cy = lay.centre(el.at)
    w, h = s * 0.26, s * 0.2
    pts = [(-w, s * 0.5), (w, s * 0.5), (w * 0.6, s * 0.5 - h), (-w * 0.6, s * 0.5 - h)]
    d.polygon(turned(pts, el["dir"], cx, cy), fill=EMITTER, outline=INK)


#: the looks the renderer has for kinds it knows; any other kind is drawn by :func:`paint_default`
PAINTERS: dict[str, Painter] = {
    "level": paint_level,
    "pit": paint_pit,
    "belt": paint_belt,
    "express": paint_express,
    "water": paint_water,
    "current": paint_current,
    "ramp": paint_ramp,
    "repair": paint_repair,
    "randomizer": paint_randomizer,
    "teleporter": paint_teleporter,
    "gear": paint_gear,
    "start": paint_start,
    "crusher": paint_crusher,
    "flag": paint_flag,
    "pusher": paint_pusher,
    "wall": paint_nothing,
    "laser": paint_emitter,
}
PAINTERS["barricade"] = paint_barricade
#: kinds ranked below the board laser are drawn under the beams, the rest over them (floor kinds always under)
BEAM_RANK = 30


def painter_for(kind: str) -> Painter:
    """The painter of a kind: its own look, else the one made from its metadata."""
    return PAINTERS.get(kind, paint_default)


def under_beams(kind: str) -> bool:
    """Whether a kind is drawn before the beams: floor kinds, and others ranked below the laser."""
    k = KINDS.get(kind)
    return k is None or k.group == "floor" or k.rank < BEAM_RANK


def draw_order(kinds: Sequence[str]) -> tuple[list[str], list[str]]:
    """The kinds on a board in the order they are drawn (by rank, lowest first): under the beams, over them."""
    def rank(name: str) -> tuple[int, int, str]:
        k = KINDS.get(name)
        return (0 if k is not None and k.group == "floor" else 1, k.rank if k else 0, name)

    ordered = sorted(kinds, key=rank)
    return [k for k in ordered if under_beams(k)], [k for k in ordered if not under_beams(k)]


def beam_path(board: Board, start: Square, d: int) -> list[Square]:
    """Squares a board laser's beam covers on the empty floor: its mount square, on to a wall or the edge."""
    return list(board.ray(start, d))


def _draw_beams(d: ImageDraw.ImageDraw, lay: Layout, board: Board) -> None:
    s = lay.cell
    for sq, els in sorted(board.layer("laser").items()):
        for el in els:
            dirn, count = el["dir"], el["count"]
            path = beam_path(board, sq, dirn)
            a = _side_line(lay, path[0], opposite(dirn))
            b = _side_line(lay, path[-1], dirn)
            ax, ay = (a[0][0] + a[1][0]) / 2, (a[0][1] + a[1][1]) / 2
            bx, by = (b[0][0] + b[1][0]) / 2, (b[0][1] + b[1][1]) / 2
            px, py = UNIT[(dirn + 1) % 4]
            gap = max(3, s // 9)
            for i in range(count):
                off = (i - (count - 1) / 2) * gap
                d.line([(ax + px * off, ay + py * off), (bx + px * off, by + py * off)], fill=BEAM,
                       width=max(2, s // 14))


def _draw_ledges(d: ImageDraw.ImageDraw, lay: Layout, board: Board) -> None:
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
            if not board.on_board(sq):
                continue
            for side in range(4):
                other = (r + DR[side], c + DC[side])
                if not board.on_board(other) or height(other) >= height(sq):
                    continue
                lower_ramp = ramps.get(other)
                if lower_ramp and lower_ramp[0]["dir"] == opposite(side):
                    continue
                a, b = _side_line(lay, sq, side, w / 2)
                d.line([a, b], fill=LEDGE, width=w)


def _draw_walls(d: ImageDraw.ImageDraw, lay: Layout, board: Board) -> None:
    w = max(3, lay.cell // 8)
    for r, c, side in sorted(board.blocked):
        if not board.on_board((r, c)):
            continue
        (x1, y1), (x2, y2) = _side_line(lay, (r, c), side, 0)
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


def _paint_layer(d: ImageDraw.ImageDraw, lay: Layout, board: Board, kind: str) -> None:
    paint = painter_for(kind)
    for _, els in sorted(board.layers[kind].items()):
        for el in els:
            paint(d, lay, el)


def draw_floor(board: Board, cell: int = CELL) -> Image.Image:
    """The course with every element and the r#c# labels, without robots (RGB)."""
    lay = Layout(board.width, board.height, cell)
    img = Image.new("RGB", lay.size, BACKGROUND)
    d = ImageDraw.Draw(img)
    for r in range(1, board.height + 1):
        for c in range(1, board.width + 1):
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
        _paint_layer(d, lay, board, kind)
    _draw_ledges(d, lay, board)
    _draw_beams(d, lay, board)
    for kind in over:
        _paint_layer(d, lay, board, kind)
    _draw_walls(d, lay, board)
    _draw_labels(d, lay)
    return img


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
_MOVED = {"frame": "frames", "frame_rgb": "frames", "png_bytes": "frames", "gif_bytes": "frames", "floor": "frames",
          "Frame": "frames", "turn_frames": "frames", "draw_robot": "robots",
          "draw_robots": "robots"}


def __getattr__(name: str) -> object:
    where = _MOVED.get(name)
    if where is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(f"{__package__}.{where}"), name)
