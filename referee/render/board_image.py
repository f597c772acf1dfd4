"""Pictures of the course: the floor and its elements, robots on it, a PNG per stage and a GIF per turn.

The floor (every element, the grid and the r#c# labels) is drawn once per board and cell size and
kept; a frame is a copy of it with the robots drawn on, mapped to a palette made once per board and
set of player colours (so PNGs are small and every frame of the GIF shares one palette).

Row 1 is at the bottom and column 1 at the left, as in the r#c# notation. Unknown element kinds
(ones added to the engine after this module) are drawn with their ASCII glyph, so they still show.
"""

from __future__ import annotations

import io
import math
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from PIL import Image, ImageDraw

from ..engine import Board, Element, Robot
from ..engine.geometry import DC, DR, Square, opposite
from ..engine.kinds import KINDS
from .fonts import font
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

Pt = tuple[float, float]
#: image-space unit vectors of N, E, S, W (image y grows downwards)
UNIT: tuple[Pt, ...] = ((0, -1), (1, 0), (0, 1), (-1, 0))


@dataclass(frozen=True, slots=True)
class Layout:
    """Pixel geometry of one board at one cell size."""

    width: int
    height: int
    cell: int

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
        return (self.left * 2 + self.width * self.cell, self.top + self.band[0] + self.height * self.cell)

    def origin(self, sq: Square) -> tuple[int, int]:
        """Top-left pixel of a square."""
        return (self.left + (sq[1] - 1) * self.cell, self.top + (self.height - sq[0]) * self.cell)

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


#: a barricade's crates (issue 13): a brown bar on each of its sides, inside the square
BARRICADE = (150, 96, 40)


def paint_barricade(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    w = max(3, lay.cell // 7)
    for side in el["sides"]:
        (x1, y1), (x2, y2) = _side_line(lay, el.at, side, w / 2 + 1)
        d.line([(x1, y1), (x2, y2)], fill=BARRICADE, width=w)


def paint_unknown(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    kind = KINDS.get(el.kind)
    glyph = kind.glyph(el).strip() if kind else el.kind[:3]
    if glyph:
        cx, cy = lay.centre(el.at)
        d.text((cx, cy), glyph, font=font(max(8, lay.cell * 3 // 8), True), fill=UNKNOWN, anchor="mm")


#: the order the floor is drawn in; kinds not named here come after the floor kinds, as glyphs
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
}
PAINTERS["barricade"] = paint_barricade
#: drawn after the beams, so nothing hides them
ON_TOP: dict[str, Painter] = {"flag": paint_flag, "pusher": paint_pusher}
#: kinds with no painter of their own that need none (walls and lasers are drawn as such)
SILENT = frozenset({"wall", "laser"})


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


def _draw_emitters(d: ImageDraw.ImageDraw, lay: Layout, board: Board) -> None:
    s = lay.cell
    for sq, els in sorted(board.layer("laser").items()):
        for el in els:
            cx, cy = lay.centre(sq)
            w, h = s * 0.26, s * 0.2
            pts = [(-w, s * 0.5), (w, s * 0.5), (w * 0.6, s * 0.5 - h), (-w * 0.6, s * 0.5 - h)]
            d.polygon(_turn(pts, el["dir"], cx, cy), fill=EMITTER, outline=INK)


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
    kinds = list(board.layers)
    order = [k for k in PAINTERS if k in kinds] + [k for k in kinds if k not in PAINTERS and k not in ON_TOP
                                                   and k not in SILENT]
    for kind in order:
        paint = PAINTERS.get(kind, paint_unknown)
        for _, els in sorted(board.layers[kind].items()):
            for el in els:
                paint(d, lay, el)
    _draw_ledges(d, lay, board)
    _draw_beams(d, lay, board)
    for kind, paint in ON_TOP.items():
        for _, els in sorted(board.layer(kind).items()):
            for el in els:
                paint(d, lay, el)
    _draw_walls(d, lay, board)
    _draw_emitters(d, lay, board)
    _draw_labels(d, lay)
    return img


# -- robots ---------------------------------------------------------------------------------------
def _mix(a: RGB, b: RGB, t: float) -> RGB:
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t), round(a[2] + (b[2] - a[2]) * t))


def _ink_on(colour: RGB) -> RGB:
    lum = 0.299 * colour[0] + 0.587 * colour[1] + 0.114 * colour[2]
    return INK if lum > 150 else WHITE


def draw_robot(d: ImageDraw.ImageDraw, cx: float, cy: float, size: float, colour: RGB, facing: int,
               virtual: bool, label: str) -> None:
    """One robot in a ``size`` square centred on (cx, cy): a disc in its colour with a nose where it faces.

    A virtual robot is a pale disc with a dashed ring, its letters in its colour.
    """
    r = size * 0.34
    nose = [(0, -size * 0.49), (size * 0.2, -r * 0.55), (-size * 0.2, -r * 0.55)]
    box = [cx - r, cy - r, cx + r, cy + r]
    if virtual:
        pale = _mix(colour, WHITE, 0.72)
        d.polygon(_turn(nose, facing, cx, cy), fill=pale, outline=colour)
        d.ellipse(box, fill=pale)
        w = max(2, round(size / 14))
        for a in range(0, 360, 45):
            d.arc(box, start=a, end=a + 28, fill=colour, width=w)
        text_fill, stroke = _mix(colour, INK, 0.25), pale
    else:
        d.polygon(_turn(nose, facing, cx, cy), fill=colour, outline=INK)
        d.ellipse(box, fill=colour, outline=INK, width=max(1, round(size / 20)))
        text_fill = _ink_on(colour)
        stroke = colour
    if label:
        fsize = max(7, round(size * (0.42 if len(label) == 1 else 0.32)))
        d.text((cx, cy), label, font=font(fsize, True), fill=text_fill, anchor="mm", stroke_width=0,
               stroke_fill=stroke)


def draw_robots(img: Image.Image, lay: Layout, robots: Sequence[Robot], players: Sequence[Player]) -> None:
    """Robots on the board, in their players' colours; robots sharing a square are drawn smaller, side by side."""
    d = ImageDraw.Draw(img)
    seat = {p.robot: i for i, p in enumerate(players)}
    look = {p.robot: p for p in players}
    by_square: dict[Square, list[Robot]] = {}
    for robot in robots:
        if robot.pos is not None:
            by_square.setdefault(robot.pos, []).append(robot)
    for sq, here in sorted(by_square.items()):
        here.sort(key=lambda r: (seat.get(r.name, len(seat)), r.name))
        n = 1 if len(here) == 1 else math.ceil(math.sqrt(len(here)))
        sub = lay.cell / n
        x0, y0 = lay.origin(sq)
        for i, robot in enumerate(here):
            cx = x0 + (i % n + 0.5) * sub
            cy = y0 + (i // n + 0.5) * sub
            p = look.get(robot.name)
            colour = p.rgb if p else GEAR_EDGE
            label = (p.initials if p else robot.name[:1].upper()) if sub >= 20 else ""
            # robots sharing a square overlap a little, so each stays big enough to see
            draw_robot(d, cx, cy, sub if n == 1 else sub * 1.2, colour, robot.facing, robot.virtual, label)


# -- frames ---------------------------------------------------------------------------------------
@dataclass
class _Floor:
    image: Image.Image
    layout: Layout
    #: player colours -> the palette image frames are mapped to
    palettes: dict[tuple[str, ...], Image.Image] = field(default_factory=dict)


_FLOORS: weakref.WeakKeyDictionary[Board, dict[int, _Floor]] = weakref.WeakKeyDictionary()


def floor(board: Board, cell: int = CELL) -> _Floor:
    """The board's floor at this cell size, drawn the first time it is asked for."""
    per_board = _FLOORS.setdefault(board, {})
    got = per_board.get(cell)
    if got is None:
        got = per_board[cell] = _Floor(draw_floor(board, cell), Layout(board.width, board.height, cell))
    return got


def _palette(fl: _Floor, players: Sequence[Player]) -> Image.Image:
    """A palette for the frames: the floor's colours and every player's robot, real and virtual."""
    key = tuple(p.hex for p in players)
    pal = fl.palettes.get(key)
    if pal is None:
        s = fl.layout.cell
        w, h = fl.image.size
        looks = [(p, virtual, bg) for p in players
                 for virtual, bg in ((False, FLOOR), (True, FLOOR), (False, BELT_BG), (True, EXPRESS_BG))]
        per_row = max(1, w // s)
        sheet = Image.new("RGB", (w, h + math.ceil(len(looks) / per_row) * s), BACKGROUND)
        sheet.paste(fl.image, (0, 0))
        d = ImageDraw.Draw(sheet)
        for i, (p, virtual, bg) in enumerate(looks):
            x, y = i % per_row * s, h + i // per_row * s
            d.rectangle([x, y, x + s, y + s], fill=bg)
            draw_robot(d, x + s / 2, y + s / 2, s, p.rgb, 1, virtual, p.initials)
        pal = fl.palettes[key] = sheet.quantize(colors=255, method=Image.Quantize.FASTOCTREE)
    return pal


def _caption(img: Image.Image, lay: Layout, text: str) -> None:
    if text:
        d = ImageDraw.Draw(img)
        d.text((lay.left, lay.title / 2 + 1), text, font=font(max(10, lay.cell * 13 // 32), True), fill=INK,
               anchor="lm")


def frame_rgb(board: Board, robots: Sequence[Robot], players: Sequence[Player], caption: str = "",
              cell: int = CELL) -> Image.Image:
    """The board with the robots on it, full colour (for archives and for looking at)."""
    fl = floor(board, cell)
    img = fl.image.copy()
    draw_robots(img, fl.layout, robots, players)
    _caption(img, fl.layout, caption)
    return img


def frame(board: Board, robots: Sequence[Robot], players: Sequence[Player], caption: str = "",
          cell: int = CELL) -> Image.Image:
    """The board with the robots on it, as a palette image (what PNGs and the GIF are made of)."""
    fl = floor(board, cell)
    return frame_rgb(board, robots, players, caption, cell).quantize(palette=_palette(fl, players),
                                                                      dither=Image.Dither.NONE)


def png_bytes(img: Image.Image) -> bytes:
    buf = io.BytesIO()
    img.save(buf, format="PNG", compress_level=9)
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


def frame_keys(phases_run: int, end_of_turn: bool) -> list[tuple[str, str]]:
    """(key, caption) of the pictures a turn report shows: the start, after each stage run, the end."""
    keys = [("start", "start of turn")]
    keys += [(f"stage{k}", f"after stage {k}") for k in range(1, phases_run + 1)]
    if end_of_turn:
        keys.append(("end", "end of turn"))
    return keys


def turn_frames(board: Board, frames: Sequence[Sequence[Robot]], players: Sequence[Player], phases_run: int,
                end_of_turn: bool, title: str = "", cell: int = CELL) -> list[Frame]:
    """One picture per entry of ``TurnResult.frames``, captioned ``title: after stage 2`` and so on."""
    keys = frame_keys(phases_run, end_of_turn)
    if len(keys) != len(frames):
        raise ValueError(f"{len(frames)} frames for {len(keys)} pictures ({phases_run} stages run)")
    out = []
    for (key, caption), robots in zip(keys, frames, strict=True):
        text = f"{title}: {caption}" if title else caption
        out.append(Frame(key, text, frame(board, robots, players, text, cell)))
    return out


#: how long the GIF shows each picture (ms): the start and the end a little longer
def gif_durations(count: int) -> list[int]:
    return [1600 if i in (0, count - 1) else 1100 for i in range(count)]
