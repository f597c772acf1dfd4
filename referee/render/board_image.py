"""Pictures of the course: the floor and its elements, robots on it, a PNG per stage and a GIF per turn.

The floor (every element, the grid and the r#c# labels) is drawn once per board and cell size and
kept; a frame is a copy of it with the robots drawn on, mapped to a palette made once per board and
set of player colours (so PNGs are small and every frame of the GIF shares one palette).

Row 1 is at the bottom and column 1 at the left, as in the r#c# notation. Unknown element kinds
(ones added to the engine after this module) are drawn with their ASCII glyph, so they still show.
"""

from __future__ import annotations

import colorsys
import hashlib
import io
import math
import weakref
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from PIL import Image, ImageDraw

from ..engine import Board, Element, Event, Robot
from ..engine.geometry import DC, DR, Square, opposite
from ..engine.kinds import KINDS
from .fonts import font, stamp
from .marks import Marks, events_of, stage_marks
from .players import Player

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


def _turn(points: Sequence[Pt], d: int, cx: float, cy: float) -> list[Pt]:
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
    d.polygon(_turn([(-w, s * 0.46), (w, s * 0.46), (w, -s * 0.1), (-w, -s * 0.1)], el["dir"], cx, cy), fill=colour)
    for i in range(heads):
        tip = -s * 0.44 + i * s * 0.3
        d.polygon(_turn([(0, tip), (s * 0.26, tip + s * 0.26), (-s * 0.26, tip + s * 0.26)], el["dir"], cx, cy),
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
        d.line(_turn([(-s * 0.42, s * k), (s * 0.42, s * k)], el["dir"], cx, cy), fill=(188, 168, 134), width=1)
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
        d.polygon(_turn([(0, tip), (s * 0.14, tip + s * 0.16), (-s * 0.14, tip + s * 0.16)], fields["dir"], cx, cy),
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
    d.polygon(_turn(pts, el["dir"], cx, cy), fill=EMITTER, outline=INK)


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


# -- robots ---------------------------------------------------------------------------------------
def _mix(a: RGB, b: RGB, t: float) -> RGB:
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t), round(a[2] + (b[2] - a[2]) * t))


def _ink_on(colour: RGB) -> RGB:
    lum = 0.299 * colour[0] + 0.587 * colour[1] + 0.114 * colour[2]
    return INK if lum > 150 else WHITE


def _rot(points: Sequence[Pt], quarters: float, cx: float, cy: float) -> list[Pt]:
    """Points drawn for facing N, turned ``quarters`` quarter turns clockwise about (cx, cy)."""
    if quarters == int(quarters):
        return _turn(points, int(quarters), cx, cy)
    a = quarters * math.pi / 2
    ca, sa = math.cos(a), math.sin(a)
    return [(cx + x * ca - y * sa, cy + x * sa + y * ca) for x, y in points]


def draw_robot(d: ImageDraw.ImageDraw, cx: float, cy: float, size: float, colour: RGB, facing: float,
               virtual: bool, label: str, options: bool = False) -> None:
    """One robot in a ``size`` square centred on (cx, cy): a disc in its colour with a wide arrow nose
    where it faces (``facing`` in quarter turns from north, fractions while it turns).

    A virtual robot is a pale disc with a dashed ring, its letters in its colour. A robot holding option
    cards has a gold diamond at its lower left.
    """
    r = size * 0.33
    nose = [(0, -size * 0.5), (size * 0.27, -r * 0.4), (-size * 0.27, -r * 0.4)]
    box = [cx - r, cy - r, cx + r, cy + r]
    if virtual:
        pale = _mix(colour, WHITE, 0.72)
        d.polygon(_rot(nose, facing, cx, cy), fill=pale, outline=colour)
        d.ellipse(box, fill=pale)
        w = max(2, round(size / 14))
        for a in range(0, 360, 45):
            d.arc(box, start=a, end=a + 28, fill=colour, width=w)
        text_fill = _mix(colour, INK, 0.25)
    else:
        d.polygon(_rot(nose, facing, cx, cy), fill=colour, outline=INK)
        d.ellipse(box, fill=colour, outline=INK, width=max(1, round(size / 20)))
        text_fill = _ink_on(colour)
    if label:
        fsize = max(7, round(size * (0.38 if len(label) == 1 else 0.28)))
        stamp(d, (cx, cy), label, fsize, True, text_fill)
    if options:
        k = max(3.0, size * 0.13)
        ox, oy = cx - r * 0.9, cy + r * 0.9
        d.polygon([(ox, oy - k), (ox + k, oy), (ox, oy + k), (ox - k, oy)], fill=OPTION, outline=INK)


@dataclass(frozen=True, slots=True)
class Place:
    """Where a robot is drawn: its centre and size in pixels."""

    cx: float
    cy: float
    size: float


def robot_places(lay: Layout, robots: Sequence[Robot], order: Mapping[str, int]) -> dict[str, Place]:
    """Where each robot on the board is drawn. A robot alone fills its square; robots sharing a square (the
    virtual robots on the dock at the start) are fanned out around it, so each is findable and the square's
    own mark (the dock number) stays in sight."""
    by_square: dict[Square, list[Robot]] = {}
    for robot in robots:
        if robot.pos is not None:
            by_square.setdefault(robot.pos, []).append(robot)
    out: dict[str, Place] = {}
    s = lay.cell
    for sq, here in by_square.items():
        cx, cy = lay.centre(sq)
        if len(here) == 1:
            out[here[0].name] = Place(cx, cy, s)
            continue
        here.sort(key=lambda r: (order.get(r.name, len(order)), r.name))
        n = len(here)
        size = s * (0.7 if n <= 4 else 0.6)
        radius = s * (0.42 if n <= 4 else 0.56)
        for i, robot in enumerate(here):
            a = math.radians(-90 + 360 * (i + 0.5) / n)
            out[robot.name] = Place(cx + radius * math.cos(a), cy + radius * math.sin(a), size)
    return out


def shared_squares(robots: Sequence[Robot]) -> set[Square]:
    seen: dict[Square, int] = {}
    for r in robots:
        if r.pos is not None:
            seen[r.pos] = seen.get(r.pos, 0) + 1
    return {sq for sq, n in seen.items() if n > 1}


def _look(players: Sequence[Player], name: str, default: RGB = GEAR_EDGE) -> tuple[RGB, str]:
    for p in players:
        if p.robot == name:
            return p.rgb, p.initials
    return default, name[:1].upper()


def draw_robots(img: Image.Image, lay: Layout, robots: Sequence[Robot], players: Sequence[Player],
                places: Mapping[str, Place] | None = None, facing: Mapping[str, float] | None = None) -> None:
    """Robots on the board in their players' colours (at ``places``, else where they stand); robots sharing a
    square are fanned out around it with a ring round the square. ``facing`` overrides facings (animation)."""
    d = ImageDraw.Draw(img)
    order = {p.robot: i for i, p in enumerate(players)}
    if places is None:
        places = robot_places(lay, robots, order)
        for sq in shared_squares(robots):
            x, y = lay.origin(sq)
            d.rectangle([x + 1, y + 1, x + lay.cell - 1, y + lay.cell - 1], outline=INK, width=2)
    facing = facing or {}
    # fanned-out robots first, so a robot alone on its square is never hidden by a neighbour's fan
    here = [r for r in robots if r.name in places]
    here.sort(key=lambda r: (places[r.name].size >= lay.cell, order.get(r.name, len(order)), r.name))
    for robot in here:
        pl = places[robot.name]
        colour, initials = _look(players, robot.name)
        label = initials if pl.size >= 18 else ""
        draw_robot(d, pl.cx, pl.cy, pl.size, colour, facing.get(robot.name, robot.facing), robot.virtual, label,
                   bool(robot.options))


# -- what happened: paths, shots, damage, wrecks --------------------------------------------------
def dashed_line(d: ImageDraw.ImageDraw, a: Pt, b: Pt, fill: RGB, width: int, dash: float, gap: float) -> None:
    length = math.dist(a, b)
    if length == 0:
        return
    ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    t = 0.0
    while t < length:
        e = min(length, t + dash)
        d.line([(a[0] + ux * t, a[1] + uy * t), (a[0] + ux * e, a[1] + uy * e)], fill=fill, width=width)
        t = e + gap


def arrowhead(d: ImageDraw.ImageDraw, a: Pt, b: Pt, size: float, fill: RGB) -> None:
    length = math.dist(a, b)
    if length == 0:
        return
    ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    bx, by = b[0] - ux * size, b[1] - uy * size
    d.polygon([b, (bx - uy * size * 0.6, by + ux * size * 0.6), (bx + uy * size * 0.6, by - ux * size * 0.6)],
              fill=fill, outline=INK)


def draw_paths(d: ImageDraw.ImageDraw, lay: Layout, marks: Marks, players: Sequence[Player]) -> None:
    """Each robot's moves in its colour, solid for its own card and dashed when something else moved it;
    a ring where it set off. Robots' paths are set a little apart so two robots on one row both show."""
    s = lay.cell
    order = {p.robot: i for i, p in enumerate(players)}
    n = max(1, len(players))
    w = max(3, s // 9)
    started: set[str] = set()
    for seg in marks.segments:
        colour, _ = _look(players, seg.robot)
        off = (order.get(seg.robot, 0) - (n - 1) / 2) * max(1.0, s / (3 * n))
        (ax, ay), (bx, by) = lay.centre(seg.start), lay.centre(seg.end)
        horizontal = abs(bx - ax) >= abs(by - ay)
        a = (ax, ay + off) if horizontal else (ax + off, ay)
        b = (bx, by + off) if horizontal else (bx + off, by)
        if seg.own:
            d.line([a, b], fill=colour, width=w)
        else:
            dashed_line(d, a, b, colour, w, s * 0.22, s * 0.14)
        arrowhead(d, a, b, s * 0.24, colour)
        if seg.robot not in started:
            started.add(seg.robot)
            r = s * 0.14
            d.ellipse([a[0] - r, a[1] - r, a[0] + r, a[1] + r], fill=WHITE, outline=colour, width=max(2, w - 1))


def draw_wrecks(d: ImageDraw.ImageDraw, lay: Layout, marks: Marks, players: Sequence[Player]) -> None:
    """A wreck where a robot was destroyed: its colour, crossed out in black."""
    s = lay.cell
    for wreck in marks.wrecks:
        colour, initials = _look(players, wreck.robot)
        cx, cy = lay.centre(wreck.at)
        r = s * 0.34
        d.ellipse([cx - r, cy - r, cx + r, cy + r], fill=_mix(colour, WRECK, 0.45), outline=INK, width=2)
        k = s * 0.3
        w = max(3, s // 8)
        d.line([(cx - k, cy - k), (cx + k, cy + k)], fill=INK, width=w)
        d.line([(cx - k, cy + k), (cx + k, cy - k)], fill=INK, width=w)
        stamp(d, (cx + s * 0.3, cy - s * 0.3), initials, max(8, s * 9 // 32), True, WHITE, stroke=2, stroke_fill=INK)


def draw_shots(d: ImageDraw.ImageDraw, lay: Layout, marks: Marks, players: Sequence[Player],
               places: Mapping[str, Place]) -> None:
    """A robot laser that hit: a beam in the shooter's colour with a red core, and a burst on the target."""
    s = lay.cell
    for shot in marks.shots:
        colour, _ = _look(players, shot.robot)
        a = places.get(shot.robot)
        b = places.get(shot.target)
        pa = (a.cx, a.cy) if a else lay.centre(shot.start)
        pb = (b.cx, b.cy) if b else lay.centre(shot.end)
        d.line([pa, pb], fill=colour, width=max(4, s // 6))
        d.line([pa, pb], fill=BEAM, width=max(2, s // 14))
        r = s * 0.18
        burst = [(pb[0] + math.cos(k * math.pi / 6) * (r if k % 2 else r * 0.45),
                  pb[1] + math.sin(k * math.pi / 6) * (r if k % 2 else r * 0.45)) for k in range(12)]
        d.polygon(burst, fill=HIT, outline=BEAM)


def draw_badges(d: ImageDraw.ImageDraw, lay: Layout, marks: Marks, places: Mapping[str, Place]) -> None:
    """The HP a robot lost in the stage (red, ``-2``) or won back (green, ``+1``), at its upper right."""
    s = lay.cell
    for badge in marks.badges:
        pl = places.get(badge.robot)
        cx, cy = (pl.cx, pl.cy) if pl else lay.centre(badge.at)
        size = pl.size if pl else s
        bx, by = cx + size * 0.34, cy - size * 0.34
        r = max(7.0, s * 0.25)
        fill = DAMAGE if badge.damage > 0 else HEAL
        d.ellipse([bx - r, by - r, bx + r, by + r], fill=fill, outline=WHITE, width=1)
        text = f"-{badge.damage}" if badge.damage > 0 else f"+{-badge.damage}"
        stamp(d, (bx, by), text, max(8, round(r * 1.05)), True, WHITE)


# -- the status strip under the board -------------------------------------------------------------
def strip_geometry(width_px: int, cell: int, count: int) -> tuple[int, int, int]:
    """(entries a row, entry width, row height) of the status strip."""
    entry = cell * 7
    per_row = max(1, width_px // entry)
    return per_row, width_px // per_row, max(18, cell * 5 // 8)


def strip_height(board: Board, cell: int, count: int) -> int:
    if count == 0:
        return 0
    width = Layout(board.width, board.height, cell).size[0]
    per_row, _, row_h = strip_geometry(width, cell, count)
    return math.ceil(count / per_row) * row_h + 6


def status_text(robot: Robot | None, flag_total: int) -> str:
    """A robot's state as the strip writes it: ``7 HP  ⚑ 1/3  ♥ 2`` (or out, or destroyed)."""
    if robot is None:
        return "-"
    if robot.out_of_game:
        return "out of the game"
    text = f"{robot.hp} HP  \u2691 {robot.flags}/{flag_total}  \u2665 {robot.lives}"
    if robot.pos is None:
        text = f"destroyed  \u2691 {robot.flags}/{flag_total}  \u2665 {robot.lives}"
    elif robot.powered_down:
        text += "  off"
    return text


_STRIPS: dict[tuple[object, ...], Image.Image] = {}


def draw_strip(img: Image.Image, lay: Layout, robots: Sequence[Robot], players: Sequence[Player],
               flag_total: int) -> None:
    """Every player's robot under the board: its colour and letters, HP, flags touched, lives, options.

    Drawn once for each state of the players (kept, a few hundred at most) and pasted: the in-between frames
    of the GIF and the pictures of a quiet stage show the same strip."""
    if not lay.strip:
        return
    by_name = {r.name: r for r in robots}
    entries = []
    for p in players:
        robot = by_name.get(p.robot)
        entries.append((p.hex, p.initials, p.label, status_text(robot, flag_total), bool(robot and robot.virtual),
                        bool(robot and robot.options)))
    key = (lay.size[0], lay.strip, lay.cell, tuple(entries))
    strip = _STRIPS.get(key)
    if strip is None:
        if len(_STRIPS) > 512:
            _STRIPS.clear()
        strip = _STRIPS[key] = _strip_image(lay, players, entries)
    img.paste(strip, (lay.ox, lay.oy + lay.size[1] - lay.strip))


def _strip_image(lay: Layout, players: Sequence[Player], entries: Sequence[tuple[str, str, str, str, bool, bool]]
                 ) -> Image.Image:
    w = lay.size[0]
    img = Image.new("RGB", (w, lay.strip), BACKGROUND)
    d = ImageDraw.Draw(img)
    d.line([(0, 0), (w, 0)], fill=GRID, width=1)
    per_row, entry_w, row_h = strip_geometry(w, lay.cell, len(players))
    fsize = max(9, lay.cell * 11 // 32)
    for i, (p, (_, initials, label, status, virtual, options)) in enumerate(zip(players, entries, strict=True)):
        x = (i % per_row) * entry_w + 6
        y = 4 + (i // per_row) * row_h + row_h / 2
        draw_robot(d, x + row_h / 2, y, row_h, p.rgb, 1, virtual, initials if row_h >= 18 else "", options)
        name = label if len(label) <= 10 else label[:9] + "\u2026"
        stamp(d, (x + row_h + 4, y), name, fsize, True, INK, "lm")
        nx = x + row_h + 8 + font(fsize, True).getlength(name)
        stamp(d, (nx, y), status, fsize, False, INK, "lm")
    return img


# -- frames ---------------------------------------------------------------------------------------
@dataclass
class _Floor:
    image: Image.Image
    layout: Layout
    #: player colours -> the palette image frames are mapped to
    palettes: dict[tuple[str, ...], Image.Image] = field(default_factory=dict)


_FLOORS: weakref.WeakKeyDictionary[Board, dict[tuple[int, int], _Floor]] = weakref.WeakKeyDictionary()


def floor(board: Board, cell: int = CELL, players: int = 0) -> _Floor:
    """The board's floor at this cell size (with room for a status strip of ``players`` robots), drawn the
    first time it is asked for and kept as long as the board is."""
    per_board = _FLOORS.setdefault(board, {})
    key = (cell, players)
    got = per_board.get(key)
    if got is None:
        base = per_board.get((cell, 0))
        bare = base.image if base is not None else draw_floor(board, cell)
        strip = strip_height(board, cell, players)
        lay = Layout(board.width, board.height, cell, strip)
        if strip:
            image = Image.new("RGB", lay.size, BACKGROUND)
            image.paste(bare, (0, 0))
            ImageDraw.Draw(image).line([(0, bare.height), (lay.size[0], bare.height)], fill=GRID, width=1)
        else:
            image = bare
        got = per_board[key] = _Floor(image, lay)
    return got


#: colours the marks use, put in every palette
MARK_COLOURS: tuple[RGB, ...] = (INK, WHITE, BEAM, HIT, DAMAGE, HEAL, OPTION, WRECK, GRID)


def _palette(fl: _Floor, players: Sequence[Player]) -> Image.Image:
    """A palette for the frames: the floor's colours, every player's robot (real and virtual) and the marks."""
    key = tuple(p.hex for p in players)
    pal = fl.palettes.get(key)
    if pal is None:
        s = fl.layout.cell
        w, h = fl.image.size
        looks = [(p, virtual, bg) for p in players
                 for virtual, bg in ((False, FLOOR), (True, FLOOR), (False, BELT_BG), (True, EXPRESS_BG))]
        per_row = max(1, w // s)
        rows = math.ceil(len(looks) / per_row) + 1
        sheet = Image.new("RGB", (w, h + rows * s), BACKGROUND)
        sheet.paste(fl.image, (0, 0))
        d = ImageDraw.Draw(sheet)
        for i, (p, virtual, bg) in enumerate(looks):
            x, y = i % per_row * s, h + i // per_row * s
            d.rectangle([x, y, x + s, y + s], fill=bg)
            draw_robot(d, x + s / 2, y + s / 2, s, p.rgb, 1, virtual, p.initials)
        y = h + (rows - 1) * s
        for i, colour in enumerate(MARK_COLOURS + tuple(_mix(p.rgb, WRECK, 0.45) for p in players)):
            d.rectangle([i * 6, y, i * 6 + 5, y + s], fill=colour)
        pal = fl.palettes[key] = sheet.quantize(colors=255, method=Image.Quantize.FASTOCTREE)
    return pal


def draw_caption(img: Image.Image, lay: Layout, text: str) -> None:
    if text:
        d = ImageDraw.Draw(img)
        stamp(d, (lay.left, lay.title / 2 + 1), text, max(10, lay.cell * 13 // 32), True, INK, "lm")


def frame_rgb(board: Board, robots: Sequence[Robot], players: Sequence[Player], caption: str = "",
              cell: int = CELL, marks: Marks | None = None, strip: bool = True) -> Image.Image:
    """The board with the robots on it, full colour: with ``marks``, what happened in the stage too; with
    ``strip``, every player's HP, flags and lives under the board."""
    fl = floor(board, cell, len(players) if strip else 0)
    lay = fl.layout
    img = fl.image.copy()
    d = ImageDraw.Draw(img)
    order = {p.robot: i for i, p in enumerate(players)}
    places = robot_places(lay, robots, order)
    if marks:
        draw_paths(d, lay, marks, players)
        draw_wrecks(d, lay, marks, players)
    draw_robots(img, lay, robots, players)
    if marks:
        draw_shots(d, lay, marks, players, places)
        draw_badges(d, lay, marks, places)
    draw_strip(img, lay, robots, players, board.flag_count)
    draw_caption(img, lay, caption)
    return img


def quantized(board: Board, img: Image.Image, players: Sequence[Player], cell: int = CELL,
              strip: bool = True) -> Image.Image:
    """An RGB frame mapped to the palette of its board and players (what PNGs and the GIF are made of)."""
    fl = floor(board, cell, len(players) if strip else 0)
    return img.quantize(palette=_palette(fl, players), dither=Image.Dither.NONE)


def frame(board: Board, robots: Sequence[Robot], players: Sequence[Player], caption: str = "",
          cell: int = CELL, marks: Marks | None = None, strip: bool = True) -> Image.Image:
    """The board with the robots on it, as a palette image (see :func:`frame_rgb`)."""
    return quantized(board, frame_rgb(board, robots, players, caption, cell, marks, strip), players, cell, strip)


#: zlib level of the PNGs: 6 makes them about a fifth bigger than 9, in a third of the time
PNG_LEVEL = 6


def png_bytes(img: Image.Image) -> bytes:
    buf = io.BytesIO()
    img.save(buf, format="PNG", compress_level=PNG_LEVEL)
    return buf.getvalue()


def gif_bytes(frames: Sequence[Image.Image], durations: Sequence[int] | int = 1000) -> bytes:
    """An endlessly looping GIF of palette frames.

    One palette for all frames, and Pillow's optimising (unused colours dropped, each frame stored as the
    box that changed) keep it small: about a third of the size it is without.
    """
    if not frames:
        raise ValueError("a GIF needs at least one frame")
    buf = io.BytesIO()
    durs = list(durations) if not isinstance(durations, int) else [durations] * len(frames)
    frames[0].save(buf, format="GIF", save_all=True, append_images=list(frames[1:]), duration=durs, loop=0,
                   optimize=True, disposal=1)
    return buf.getvalue()


@dataclass(frozen=True, slots=True)
class Frame:
    """One picture of the turn report: ``key`` names it (``start``, ``stage1``... ``end``)."""

    key: str
    caption: str
    image: Image.Image
    #: what the picture marks (paths, shots, damage, wrecks) of the stage it ends
    marks: Marks = field(default_factory=Marks)


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


def turn_frames(board: Board, frames: Sequence[Sequence[Robot]], players: Sequence[Player], phases_run: int,
                end_of_turn: bool, title: str = "", cell: int = CELL,
                events: Sequence[Event] = ()) -> list[Frame]:
    """One picture per entry of ``TurnResult.frames``, captioned ``title: after stage 2`` and so on; with
    ``events``, each picture marks what happened in the stage it ends."""
    keys = frame_keys(phases_run, end_of_turn)
    if len(keys) != len(frames):
        raise ValueError(f"{len(frames)} frames for {len(keys)} pictures ({phases_run} stages run)")
    out = []
    for i, ((key, caption), robots) in enumerate(zip(keys, frames, strict=True)):
        text = f"{title}: {caption}" if title else caption
        before = frames[i - 1] if i else robots
        marks = stage_marks(before, events_of(events, frame_phase(key))) if events else Marks()
        out.append(Frame(key, text, frame(board, robots, players, text, cell, marks), marks))
    return out


#: how long the GIF shows each picture (ms): the start and the end a little longer
def gif_durations(count: int) -> list[int]:
    return [1600 if i in (0, count - 1) else 1100 for i in range(count)]
