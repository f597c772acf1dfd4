"""How the classic board elements look: belts, gears, pits, pushers, flags, barricades... one painter per kind
(``(draw, layout, element)``), collected in :data:`.painters.PAINTERS` with the expansions' (:mod:`.factory_tiles`).
"""

from __future__ import annotations

import math
from collections.abc import Hashable

from PIL import ImageDraw

from ..engine import Element
from ..engine.geometry import Square, opposite
from .colours import (
    BELT_BG,
    BELT_FG,
    CRUSHER_BG,
    CRUSHER_TEETH,
    CRUSHER_TEXT,
    EMITTER,
    EXPRESS_BG,
    EXPRESS_FG,
    FLAG_CLOTH,
    FLAG_TEXT,
    GEAR_BODY,
    GEAR_EDGE,
    GEAR_LEFT,
    GEAR_RIGHT,
    INK,
    LEDGE,
    PIT,
    PIT_RIM,
    PUSHER,
    RAMP_BG,
    RANDOMIZER_BG,
    REPAIR_BG,
    RGB,
    START_BG,
    START_FG,
    TELEPORTER,
    WATER,
    WAVE,
    WRENCH,
)
from .fonts import font
from .layout import UNIT, Layout, side_line, turned


def tile(d: ImageDraw.ImageDraw, lay: Layout, sq: Square, fill: RGB) -> None:
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
    tile(d, lay, el.at, BELT_BG)
    _belt_arrow(d, lay, el, BELT_FG, 1)


def paint_express(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    tile(d, lay, el.at, EXPRESS_BG)
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
    tile(d, lay, el.at, REPAIR_BG)
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
    tile(d, lay, el.at, START_BG)
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
    tile(d, lay, el.at, CRUSHER_BG)
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
    (x1, y1), (x2, y2) = side_line(lay, el.at, mount, 0)
    (x3, y3), (x4, y4) = side_line(lay, el.at, mount, depth)
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
    tile(d, lay, el.at, WATER)
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
    tile(d, lay, el.at, RANDOMIZER_BG)
    cx, cy = lay.centre(el.at)
    d.text((cx, cy), "?", font=font(max(10, lay.cell * 5 // 8), True), fill=TELEPORTER, anchor="mm")


def paint_ramp(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    tile(d, lay, el.at, RAMP_BG)
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


#: a barricade's crates (issue 13): a row of brown crates along each of its sides, inside the square
BARRICADE = (150, 96, 40)
#: a crate knocked off: its outline left
BARRICADE_BROKEN = (196, 160, 112)


def paint_barricade(d: ImageDraw.ImageDraw, lay: Layout, el: Element, look: Hashable = None) -> None:
    """``strength`` crates along each side; ``look``: the hits each side has taken, a crate knocked off each."""
    w = max(3, lay.cell // 7)
    strength = int(el.fields.get("strength", 2))
    hits = look if isinstance(look, tuple) else (0,) * len(el["sides"])
    for side, taken in zip(el["sides"], hits, strict=False):
        (x1, y1), (x2, y2) = side_line(lay, el.at, side, w / 2 + 1)
        for i in range(strength):
            a, b = i / strength, (i + 1) / strength
            ax, ay = x1 + (x2 - x1) * a, y1 + (y2 - y1) * a
            bx, by = x1 + (x2 - x1) * b, y1 + (y2 - y1) * b
            box = [min(ax, bx) - (w / 2 if ax == bx else -1), min(ay, by) - (w / 2 if ay == by else -1),
                   max(ax, bx) + (w / 2 if ax == bx else -1), max(ay, by) + (w / 2 if ay == by else -1)]
            if i < strength - taken:
                d.rectangle(box, fill=BARRICADE, outline=INK)
            else:
                d.rectangle(box, outline=BARRICADE_BROKEN)


def paint_emitter(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    """A board laser's mount on the wall behind it (its beam is drawn with the beams)."""
    s = lay.cell
    cx, cy = lay.centre(el.at)
    w, h = s * 0.26, s * 0.2
    pts = [(-w, s * 0.5), (w, s * 0.5), (w * 0.6, s * 0.5 - h), (-w * 0.6, s * 0.5 - h)]
    d.polygon(turned(pts, el["dir"], cx, cy), fill=EMITTER, outline=INK)

