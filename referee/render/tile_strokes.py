"""The strokes the drawn tiles of :mod:`.factory_tiles` are put together from (a floor colour, an arrow, the
five phase pips, bars along sides, a disc, a flame, a cloud, a gear...) and the colours they use."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence

from PIL import ImageDraw

from ..engine import Element
from ..engine.geometry import opposite
from .colours import INK, PIT, PIT_RIM, RGB, WHITE
from .fonts import font
from .layout import UNIT, Layout, side_line, turned

Painter = Callable[[ImageDraw.ImageDraw, Layout, Element], None]

DEEP_WATER: RGB = (88, 130, 190)
DEEP_WAVE: RGB = (40, 80, 150)
ICE: RGB = (214, 240, 250)
ICE_LINE: RGB = (120, 180, 215)
OIL: RGB = (30, 28, 36)
SAND: RGB = (226, 200, 140)
SAND_LINE: RGB = (170, 130, 60)
FLAME: RGB = (240, 110, 20)
FLAME_CORE: RGB = (255, 214, 60)
LAVA: RGB = (236, 96, 30)
LAVA_CRUST: RGB = (120, 30, 10)
RADIATION: RGB = (250, 210, 30)
GRAVE_STONE: RGB = (120, 120, 126)
GHOST: RGB = (236, 236, 244)
MAGNET: RGB = (200, 30, 30)
MAGNET_TIP: RGB = (200, 200, 200)
GAS: RGB = (170, 206, 90)
SMOKE: RGB = (150, 150, 150)
PORTAL: RGB = (40, 150, 170)
BEAM_MELT: RGB = (255, 120, 0)
BEAM_RADIO: RGB = (40, 110, 220)
MACHINE: RGB = (110, 120, 140)
MACHINE_BG: RGB = (208, 212, 224)
BOLT: RGB = (250, 200, 0)
HYPER_BG: RGB = (250, 220, 110)
HYPER_FG: RGB = (170, 110, 0)
BELT_BG: RGB = (240, 224, 140)
BELT_FG: RGB = (150, 108, 0)
EXPRESS_BG: RGB = (158, 198, 240)
EXPRESS_FG: RGB = (18, 64, 160)
WALLISH: RGB = (60, 60, 60)
FORCE: RGB = (40, 190, 230)
FENCE: RGB = (250, 200, 0)
DOOR: RGB = (140, 90, 40)
PAD: RGB = (236, 200, 214)
PAD_LINE: RGB = (190, 130, 160)
PLATE: RGB = (190, 194, 200)
PISTON: dict[str, RGB] = {"red": (210, 50, 50), "blue": (50, 90, 210)}
PISTON_SHADOW: RGB = (110, 110, 110)
GEAR: RGB = (150, 150, 150)
GEAR_EDGE: RGB = (70, 70, 70)
GREEN: RGB = (24, 140, 40)
RED: RGB = (200, 36, 36)
PIP_ON: RGB = (20, 20, 20)
PIP_OFF: RGB = (255, 255, 255)

#: diagonal and straight directions of an accelerator's ``to`` field, as unit vectors on the picture
COMPASS = {"n": (0, -1), "ne": (1, -1), "e": (1, 0), "se": (1, 1), "s": (0, 1), "sw": (-1, 1), "w": (-1, 0),
            "nw": (-1, -1)}


# -- strokes -----------------------------------------------------------------------------------------------
def tile(d: ImageDraw.ImageDraw, lay: Layout, el: Element, fill: RGB) -> None:
    x, y = lay.origin(el.at)
    d.rectangle([x + 1, y + 1, x + lay.cell - 1, y + lay.cell - 1], fill=fill)


def arrow(d: ImageDraw.ImageDraw, lay: Layout, el: Element, colour: RGB, heads: int = 1, d_: int | None = None,
           scale: float = 1.0) -> None:
    """A belt's arrow toward ``d_`` (the element's ``dir`` by default): a shaft and ``heads`` heads."""
    s = lay.cell * scale
    cx, cy = lay.centre(el.at)
    way = el["dir"] if d_ is None else d_
    w = s * 0.07
    d.polygon(turned([(-w, s * 0.4), (w, s * 0.4), (w, -s * 0.1), (-w, -s * 0.1)], way, cx, cy), fill=colour)
    for i in range(heads):
        tip = -s * 0.42 + i * s * 0.24
        d.polygon(turned([(0, tip), (s * 0.24, tip + s * 0.22), (-s * 0.24, tip + s * 0.22)], way, cx, cy),
                  fill=colour)


def pips(d: ImageDraw.ImageDraw, lay: Layout, el: Element, phases: Iterable[int], colour: RGB = PIP_ON) -> None:
    """The register phases an element acts in: five pips along the bottom, filled for the listed ones."""
    x, y = lay.origin(el.at)
    s = lay.cell
    on = set(phases)
    r = max(1.5, s / 18)
    gap = (s - 6) / 5
    for i in range(5):
        px, py = x + 3 + gap * (i + 0.5), y + s - 2 - r
        d.ellipse([px - r, py - r, px + r, py + r], fill=colour if i + 1 in on else PIP_OFF, outline=INK)


def bars(d: ImageDraw.ImageDraw, lay: Layout, el: Element, sides: Iterable[int], colour: RGB, width: float,
          style: str = "solid") -> None:
    """A bar along each of ``sides``: solid, dashed (gaps), spiked (teeth inward) or zigzag (a fence)."""
    w = max(2, round(width))
    for side in sides:
        (x1, y1), (x2, y2) = side_line(lay, el.at, side, w / 2 + 1)
        if style == "solid":
            d.line([(x1, y1), (x2, y2)], fill=colour, width=w)
            continue
        n = 6
        pts = [(x1 + (x2 - x1) * i / n, y1 + (y2 - y1) * i / n) for i in range(n + 1)]
        if style == "dashed":
            for i in range(0, n, 2):
                d.line([pts[i], pts[i + 1]], fill=colour, width=w)
        elif style == "zigzag":
            ix, iy = UNIT[opposite(side)]
            zig = [(px + ix * (w if i % 2 else 0), py + iy * (w if i % 2 else 0)) for i, (px, py) in enumerate(pts)]
            d.line(zig, fill=colour, width=max(2, w // 2))
        elif style == "spiked":
            d.line([(x1, y1), (x2, y2)], fill=colour, width=w)
            ix, iy = UNIT[opposite(side)]
            for i in range(n):
                (ax, ay), (bx, by) = pts[i], pts[i + 1]
                mx, my = (ax + bx) / 2 + ix * lay.cell * 0.16, (ay + by) / 2 + iy * lay.cell * 0.16
                d.polygon([(ax, ay), (bx, by), (mx, my)], fill=colour)


def disc(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: RGB | None, outline: RGB | None = None,
          width: int = 1) -> None:
    d.ellipse([cx - r, cy - r, cx + r, cy + r], fill=fill, outline=outline, width=width)


def flame(d: ImageDraw.ImageDraw, cx: float, cy: float, s: float) -> None:
    outer = [(cx, cy - s * 0.34), (cx + s * 0.2, cy - s * 0.02), (cx + s * 0.16, cy + s * 0.2),
             (cx, cy + s * 0.28), (cx - s * 0.16, cy + s * 0.2), (cx - s * 0.2, cy - s * 0.02)]
    d.polygon(outer, fill=FLAME, outline=(150, 40, 0))
    inner = [(cx, cy - s * 0.08), (cx + s * 0.09, cy + s * 0.1), (cx, cy + s * 0.2), (cx - s * 0.09, cy + s * 0.1)]
    d.polygon(inner, fill=FLAME_CORE)


def cloud(d: ImageDraw.ImageDraw, cx: float, cy: float, s: float, fill: RGB) -> None:
    for dx, dy, r in ((-0.16, 0.04, 0.14), (0.0, -0.06, 0.17), (0.17, 0.04, 0.13), (0.0, 0.1, 0.14)):
        disc(d, cx + dx * s, cy + dy * s, r * s, fill)


def trefoil(d: ImageDraw.ImageDraw, cx: float, cy: float, s: float, bg: RGB) -> None:
    disc(d, cx, cy, s * 0.34, bg)
    r = s * 0.3
    for k in range(3):
        start = -90 + k * 120 - 30
        d.pieslice([cx - r, cy - r, cx + r, cy + r], start, start + 60, fill=INK)
    disc(d, cx, cy, s * 0.1, bg)
    disc(d, cx, cy, s * 0.06, INK)


def gear(d: ImageDraw.ImageDraw, cx: float, cy: float, s: float, teeth: int = 12) -> None:
    pts = []
    for i in range(teeth * 2):
        a = math.pi * i / teeth
        r = s * (0.42 if i % 2 == 0 else 0.33)
        pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    d.polygon(pts, fill=GEAR, outline=GEAR_EDGE)


def turn_arrow(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, right: bool, colour: RGB, sweep: int = 270,
                width: int = 2) -> None:
    """A curved arrow round (cx, cy): clockwise when ``right``."""
    first = 200 if right else 340 - sweep + 70
    last = first + sweep
    d.arc([cx - r, cy - r, cx + r, cy + r], start=first, end=last, fill=colour, width=width)
    head = math.radians(last if right else first)
    sign = 1 if right else -1
    tx, ty = cx + r * math.cos(head), cy + r * math.sin(head)
    vx, vy = -math.sin(head) * sign, math.cos(head) * sign
    nx, ny = math.cos(head), math.sin(head)
    h = r * 0.75
    d.polygon([(tx + vx * h, ty + vy * h), (tx + nx * h * 0.6, ty + ny * h * 0.6),
               (tx - nx * h * 0.6, ty - ny * h * 0.6)], fill=colour)


def number(d: ImageDraw.ImageDraw, lay: Layout, el: Element, n: object, colour: RGB = INK) -> None:
    x, y = lay.origin(el.at)
    d.text((x + lay.cell - 4, y + 3), str(n), font=font(max(7, lay.cell // 4), True), fill=colour, anchor="ra",
           stroke_width=1, stroke_fill=WHITE)


def waves(d: ImageDraw.ImageDraw, lay: Layout, el: Element, colour: RGB, rows: Sequence[float]) -> None:
    x, y = lay.origin(el.at)
    s = lay.cell
    for k in rows:
        pts = [(x + 3 + i * (s - 6) / 8, y + s * k + (2 if i % 2 else -1)) for i in range(9)]
        d.line(pts, fill=colour, width=1)


def hatch(d: ImageDraw.ImageDraw, lay: Layout, el: Element, colour: RGB, step: float = 0.25) -> None:
    """Diagonal lines across the square (a hatch, a grate)."""
    x, y = lay.origin(el.at)
    s = lay.cell
    k = step
    while k < 2:
        a = (x + 2 + min(k, 1) * (s - 4), y + 2 + max(0.0, k - 1) * (s - 4))
        b = (x + 2 + max(0.0, k - 1) * (s - 4), y + 2 + min(k, 1) * (s - 4))
        d.line([a, b], fill=colour, width=1)
        k += step


def pit(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    x, y = lay.origin(el.at)
    s = lay.cell
    d.rectangle([x + 1, y + 1, x + s - 1, y + s - 1], fill=PIT_RIM)
    m = max(3, s // 7)
    d.rectangle([x + m, y + m, x + s - m, y + s - m], fill=PIT)
