"""Drawn tiles for the RoboFactory elements (and the other expansion kinds), so that a course full of them
reads at the mail's scale without the key: shapes and colours, no letters.

Each kind's look is put together from a few strokes (:func:`_tile`, :func:`_arrow`, :func:`_pips`,
:func:`_bars`...): a floor colour that says what it is (water blue, ice pale cyan, oil black, lava orange,
sand tan), a symbol (a flame, a horseshoe magnet, a tombstone, a trefoil, a cloud, a bolt), the direction an
element has as an arrow, and the register phases it acts in as five pips along the bottom of the square (a
filled pip for a phase it acts in). Numbers an element carries (a portal's pair, a room) are small digits,
as on flags. :data:`TILES` maps kind -> painter; :mod:`.painters` adds them to its own.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable, Sequence

from PIL import ImageDraw

from ..engine import Element
from ..engine.geometry import opposite
from .colours import INK, PIT, PIT_RIM, RGB, TELEPORTER, WATER, WAVE, WHITE
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
_COMPASS = {"n": (0, -1), "ne": (1, -1), "e": (1, 0), "se": (1, 1), "s": (0, 1), "sw": (-1, 1), "w": (-1, 0),
            "nw": (-1, -1)}


# -- strokes -----------------------------------------------------------------------------------------------
def _tile(d: ImageDraw.ImageDraw, lay: Layout, el: Element, fill: RGB) -> None:
    x, y = lay.origin(el.at)
    d.rectangle([x + 1, y + 1, x + lay.cell - 1, y + lay.cell - 1], fill=fill)


def _arrow(d: ImageDraw.ImageDraw, lay: Layout, el: Element, colour: RGB, heads: int = 1, d_: int | None = None,
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


def _pips(d: ImageDraw.ImageDraw, lay: Layout, el: Element, phases: Iterable[int], colour: RGB = PIP_ON) -> None:
    """The register phases an element acts in: five pips along the bottom, filled for the listed ones."""
    x, y = lay.origin(el.at)
    s = lay.cell
    on = set(phases)
    r = max(1.5, s / 18)
    gap = (s - 6) / 5
    for i in range(5):
        px, py = x + 3 + gap * (i + 0.5), y + s - 2 - r
        d.ellipse([px - r, py - r, px + r, py + r], fill=colour if i + 1 in on else PIP_OFF, outline=INK)


def _bars(d: ImageDraw.ImageDraw, lay: Layout, el: Element, sides: Iterable[int], colour: RGB, width: float,
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


def _disc(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: RGB | None, outline: RGB | None = None,
          width: int = 1) -> None:
    d.ellipse([cx - r, cy - r, cx + r, cy + r], fill=fill, outline=outline, width=width)


def _flame(d: ImageDraw.ImageDraw, cx: float, cy: float, s: float) -> None:
    outer = [(cx, cy - s * 0.34), (cx + s * 0.2, cy - s * 0.02), (cx + s * 0.16, cy + s * 0.2),
             (cx, cy + s * 0.28), (cx - s * 0.16, cy + s * 0.2), (cx - s * 0.2, cy - s * 0.02)]
    d.polygon(outer, fill=FLAME, outline=(150, 40, 0))
    inner = [(cx, cy - s * 0.08), (cx + s * 0.09, cy + s * 0.1), (cx, cy + s * 0.2), (cx - s * 0.09, cy + s * 0.1)]
    d.polygon(inner, fill=FLAME_CORE)


def _cloud(d: ImageDraw.ImageDraw, cx: float, cy: float, s: float, fill: RGB) -> None:
    for dx, dy, r in ((-0.16, 0.04, 0.14), (0.0, -0.06, 0.17), (0.17, 0.04, 0.13), (0.0, 0.1, 0.14)):
        _disc(d, cx + dx * s, cy + dy * s, r * s, fill)


def _trefoil(d: ImageDraw.ImageDraw, cx: float, cy: float, s: float, bg: RGB) -> None:
    _disc(d, cx, cy, s * 0.34, bg)
    r = s * 0.3
    for k in range(3):
        start = -90 + k * 120 - 30
        d.pieslice([cx - r, cy - r, cx + r, cy + r], start, start + 60, fill=INK)
    _disc(d, cx, cy, s * 0.1, bg)
    _disc(d, cx, cy, s * 0.06, INK)


def _gear(d: ImageDraw.ImageDraw, cx: float, cy: float, s: float, teeth: int = 12) -> None:
    pts = []
    for i in range(teeth * 2):
        a = math.pi * i / teeth
        r = s * (0.42 if i % 2 == 0 else 0.33)
        pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    d.polygon(pts, fill=GEAR, outline=GEAR_EDGE)


def _turn_arrow(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, right: bool, colour: RGB, sweep: int = 270,
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


def _number(d: ImageDraw.ImageDraw, lay: Layout, el: Element, n: object, colour: RGB = INK) -> None:
    x, y = lay.origin(el.at)
    d.text((x + lay.cell - 4, y + 3), str(n), font=font(max(7, lay.cell // 4), True), fill=colour, anchor="ra",
           stroke_width=1, stroke_fill=WHITE)


def _waves(d: ImageDraw.ImageDraw, lay: Layout, el: Element, colour: RGB, rows: Sequence[float]) -> None:
    x, y = lay.origin(el.at)
    s = lay.cell
    for k in rows:
        pts = [(x + 3 + i * (s - 6) / 8, y + s * k + (2 if i % 2 else -1)) for i in range(9)]
        d.line(pts, fill=colour, width=1)


def _hatch(d: ImageDraw.ImageDraw, lay: Layout, el: Element, colour: RGB, step: float = 0.25) -> None:
    """Diagonal lines across the square (a hatch, a grate)."""
    x, y = lay.origin(el.at)
    s = lay.cell
    k = step
    while k < 2:
        a = (x + 2 + min(k, 1) * (s - 4), y + 2 + max(0.0, k - 1) * (s - 4))
        b = (x + 2 + max(0.0, k - 1) * (s - 4), y + 2 + min(k, 1) * (s - 4))
        d.line([a, b], fill=colour, width=1)
        k += step


def _pit(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    x, y = lay.origin(el.at)
    s = lay.cell
    d.rectangle([x + 1, y + 1, x + s - 1, y + s - 1], fill=PIT_RIM)
    m = max(3, s // 7)
    d.rectangle([x + m, y + m, x + s - m, y + s - m], fill=PIT)


# -- floors ------------------------------------------------------------------------------------------------
def paint_deep_water(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    _tile(d, lay, el, DEEP_WATER)
    _waves(d, lay, el, DEEP_WAVE, (0.22, 0.42, 0.62, 0.82))


def paint_puddle(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    cx, cy = lay.centre(el.at)
    s = lay.cell
    d.ellipse([cx - s * 0.36, cy - s * 0.22, cx + s * 0.36, cy + s * 0.24], fill=WATER, outline=WAVE)


def paint_waterfall(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    _tile(d, lay, el, WATER)
    _waves(d, lay, el, WAVE, (0.3, 0.7))
    _arrow(d, lay, el, DEEP_WAVE, 3)


def paint_ice(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    _tile(d, lay, el, ICE)
    cx, cy = lay.centre(el.at)
    r = lay.cell * 0.3
    for k in range(3):
        a = math.pi * k / 3
        d.line([(cx - r * math.cos(a), cy - r * math.sin(a)), (cx + r * math.cos(a), cy + r * math.sin(a))],
               fill=ICE_LINE, width=2)


def paint_oil(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    cx, cy = lay.centre(el.at)
    s = lay.cell
    d.ellipse([cx - s * 0.38, cy - s * 0.26, cx + s * 0.3, cy + s * 0.24], fill=OIL)
    _disc(d, cx + s * 0.26, cy + s * 0.2, s * 0.1, OIL)
    d.arc([cx - s * 0.26, cy - s * 0.18, cx + s * 0.02, cy + s * 0.04], 190, 260, fill=(150, 150, 170), width=2)


def paint_soap(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    _tile(d, lay, el, (236, 244, 250))
    cx, cy = lay.centre(el.at)
    s = lay.cell
    for dx, dy, r in ((-0.16, 0.1, 0.14), (0.14, -0.06, 0.17), (0.06, 0.24, 0.08), (-0.2, -0.2, 0.08)):
        _disc(d, cx + dx * s, cy + dy * s, r * s, None, (120, 150, 200), 1)


def paint_sand(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    """Tilted ground: tan, with chevrons pointing downhill."""
    _tile(d, lay, el, SAND)
    cx, cy = lay.centre(el.at)
    s = lay.cell
    for k in (-0.18, 0.12):
        d.line(turned([(-s * 0.28, k * s + s * 0.16), (0, k * s), (s * 0.28, k * s + s * 0.16)], el["dir"], cx, cy),
               fill=SAND_LINE, width=2)


def paint_lava(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    _tile(d, lay, el, LAVA_CRUST)
    cx, cy = lay.centre(el.at)
    s = lay.cell
    d.polygon([(cx - s * 0.3, cy - s * 0.1), (cx - s * 0.05, cy - s * 0.32), (cx + s * 0.32, cy - s * 0.14),
               (cx + s * 0.22, cy + s * 0.2), (cx - s * 0.2, cy + s * 0.18)], fill=LAVA)
    if el.fields.get("reach") == "around":
        d.rectangle([cx - s * 0.46, cy - s * 0.46, cx + s * 0.46, cy + s * 0.46], outline=LAVA, width=1)
    _pips(d, lay, el, el["phases"], LAVA)


def paint_molten_ore(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    _tile(d, lay, el, LAVA)
    _arrow(d, lay, el, LAVA_CRUST, 1)


def paint_crumbly(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    _tile(d, lay, el, (200, 190, 176))
    x, y = lay.origin(el.at)
    s = lay.cell
    crack = [(x + s * 0.2, y + s * 0.15), (x + s * 0.42, y + s * 0.42), (x + s * 0.3, y + s * 0.6),
             (x + s * 0.55, y + s * 0.85)]
    d.line(crack, fill=(90, 70, 50), width=2)
    d.line([(x + s * 0.42, y + s * 0.42), (x + s * 0.8, y + s * 0.35)], fill=(90, 70, 50), width=1)


def paint_padded(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    _tile(d, lay, el, PAD)
    x, y = lay.origin(el.at)
    s = lay.cell
    for k in (0.33, 0.66):
        d.line([(x + 2, y + s * k), (x + s - 2, y + s * k)], fill=PAD_LINE, width=1)
        d.line([(x + s * k, y + 2), (x + s * k, y + s - 2)], fill=PAD_LINE, width=1)


def paint_plate(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    _tile(d, lay, el, PLATE)
    x, y = lay.origin(el.at)
    s = lay.cell
    for px, py in ((0.18, 0.18), (0.82, 0.18), (0.18, 0.82), (0.82, 0.82)):
        _disc(d, x + s * px, y + s * py, max(1.5, s / 16), (120, 124, 130))


def paint_grave(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    """A tombstone (and a ghost's wisp): 1 damage every phase."""
    cx, cy = lay.centre(el.at)
    s = lay.cell
    d.rounded_rectangle([cx - s * 0.24, cy - s * 0.32, cx + s * 0.24, cy + s * 0.36], radius=s * 0.2,
                        fill=GRAVE_STONE, outline=INK)
    d.line([(cx, cy - s * 0.2), (cx, cy + s * 0.16)], fill=WHITE, width=2)
    d.line([(cx - s * 0.12, cy - s * 0.08), (cx + s * 0.12, cy - s * 0.08)], fill=WHITE, width=2)


def paint_radiation(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    cx, cy = lay.centre(el.at)
    _trefoil(d, cx, cy, lay.cell, RADIATION)


def paint_radioactive_waste(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    """A barrel with the trefoil on it."""
    cx, cy = lay.centre(el.at)
    s = lay.cell
    d.rounded_rectangle([cx - s * 0.3, cy - s * 0.38, cx + s * 0.3, cy + s * 0.38], radius=s * 0.08,
                        fill=RADIATION, outline=INK)
    _trefoil(d, cx, cy, s * 0.7, RADIATION)


def paint_flamer(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    cx, cy = lay.centre(el.at)
    _flame(d, cx, cy - lay.cell * 0.06, lay.cell)
    _pips(d, lay, el, el["phases"], FLAME)


def paint_napalm(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    _tile(d, lay, el, (250, 222, 190))
    cx, cy = lay.centre(el.at)
    s = lay.cell
    _flame(d, cx - s * 0.14, cy - s * 0.04, s * 0.8)
    _flame(d, cx + s * 0.16, cy - s * 0.04, s * 0.8)
    _pips(d, lay, el, el["phases"], FLAME)


def paint_soporific_gas(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    cx, cy = lay.centre(el.at)
    _cloud(d, cx, cy, lay.cell, GAS)
    s = lay.cell
    # "z z": three short strokes of a zigzag, drawn, not written
    d.line([(cx - s * 0.1, cy - s * 0.06), (cx + s * 0.06, cy - s * 0.06), (cx - s * 0.1, cy + s * 0.08),
            (cx + s * 0.06, cy + s * 0.08)], fill=(60, 90, 20), width=2)


def paint_smoke(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    cx, cy = lay.centre(el.at)
    _cloud(d, cx, cy, lay.cell, SMOKE)


def paint_fog(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    _tile(d, lay, el, (226, 228, 232))
    _waves(d, lay, el, (170, 174, 180), (0.3, 0.5, 0.7))


def paint_smokestack(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    _pit(d, lay, el)
    cx, cy = lay.centre(el.at)
    _cloud(d, cx, cy, lay.cell * 0.8, SMOKE)


def paint_drain(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    _pit(d, lay, el)
    x, y = lay.origin(el.at)
    s = lay.cell
    for k in (0.3, 0.5, 0.7):
        d.line([(x + s * k, y + s * 0.2), (x + s * k, y + s * 0.8)], fill=(150, 150, 150), width=2)


def paint_black_hole(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    cx, cy = lay.centre(el.at)
    s = lay.cell
    _disc(d, cx, cy, s * 0.44, (90, 40, 120))
    _disc(d, cx, cy, s * 0.3, (40, 10, 60))
    _disc(d, cx, cy, s * 0.16, PIT)


def paint_trapdoor(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    _pit(d, lay, el)
    _hatch(d, lay, el, (140, 110, 70), 0.3)
    _pips(d, lay, el, el["phases"])


def paint_bridge(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    _pit(d, lay, el)
    x, y = lay.origin(el.at)
    s = lay.cell
    for k in (0.22, 0.42, 0.62):
        d.rectangle([x + 3, y + s * k, x + s - 3, y + s * k + s * 0.12], fill=(170, 130, 80))
    _pips(d, lay, el, el["phases"])


def paint_elevator(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    _tile(d, lay, el, MACHINE_BG)
    cx, cy = lay.centre(el.at)
    s = lay.cell
    d.polygon([(cx, cy - s * 0.34), (cx + s * 0.2, cy - s * 0.1), (cx - s * 0.2, cy - s * 0.1)], fill=MACHINE)
    d.polygon([(cx, cy + s * 0.2), (cx + s * 0.2, cy - s * 0.02), (cx - s * 0.2, cy - s * 0.02)], fill=MACHINE)
    _pips(d, lay, el, el["phases"])


def paint_sluice(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    _tile(d, lay, el, (176, 190, 200))
    x, y = lay.origin(el.at)
    s = lay.cell
    for k in (0.25, 0.45, 0.65):
        d.line([(x + 3, y + s * k), (x + s - 3, y + s * k)], fill=(90, 100, 120), width=2)
    _pips(d, lay, el, el["closed"])


def paint_hydraulic_trapdoor(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    _tile(d, lay, el, (150, 140, 120))
    _hatch(d, lay, el, (90, 80, 60), 0.34)
    _number(d, lay, el, el.fields.get("carry", 1))


def paint_platform(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    _tile(d, lay, el, (200, 180, 150))
    x, y = lay.origin(el.at)
    s = lay.cell
    d.rectangle([x + 3, y + 3, x + s - 3, y + s - 3], outline=(120, 90, 50), width=1)
    area = el.fields.get("area", "middle")
    if area == "middle":
        cx, cy = lay.centre(el.at)
        d.polygon([(cx, cy - s * 0.14), (cx + s * 0.14, cy + s * 0.12), (cx - s * 0.14, cy + s * 0.12)],
                  fill=(120, 90, 50))
    else:
        _arrow(d, lay, el, (120, 90, 50), 1, "nesw".index(area), 0.7)
    _number(d, lay, el, el.fields.get("platform", 1))


def paint_rotating_room(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    _tile(d, lay, el, (220, 214, 236))
    cx, cy = lay.centre(el.at)
    _turn_arrow(d, cx, cy, lay.cell * 0.26, True, (100, 70, 160))
    _pips(d, lay, el, (5,), (100, 70, 160))


# -- belts and movers --------------------------------------------------------------------------------------
def paint_hyper(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    _tile(d, lay, el, HYPER_BG)
    _arrow(d, lay, el, HYPER_FG, 3)


def paint_flip_belt(d: ImageDraw.ImageDraw, lay: Layout, el: Element, look: Hashable = False) -> None:
    """A belt's arrow the way it runs now (``look``: turned round), a hollow head at its tail."""
    way = opposite(el["dir"]) if look else el["dir"]
    _tile(d, lay, el, BELT_BG)
    _arrow(d, lay, el, BELT_FG, 1, way)
    cx, cy = lay.centre(el.at)
    s = lay.cell
    tail = s * 0.42
    d.polygon(turned([(0, tail), (s * 0.16, tail - s * 0.16), (-s * 0.16, tail - s * 0.16)], way, cx, cy),
              outline=BELT_FG, fill=BELT_BG)


def paint_rotating_belt(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    express = bool(el.fields.get("express"))
    _tile(d, lay, el, EXPRESS_BG if express else BELT_BG)
    colour = EXPRESS_FG if express else BELT_FG
    _arrow(d, lay, el, colour, 2 if express else 1, scale=0.8)
    x, y = lay.origin(el.at)
    right = el["turn"] == "right"
    _turn_arrow(d, x + lay.cell * 0.78, y + lay.cell * 0.78, lay.cell * 0.13, right, GREEN if right else RED, 270, 1)


def paint_fast_ramp(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    _tile(d, lay, el, (214, 196, 164))
    s = lay.cell
    cx, cy = lay.centre(el.at)
    for k in (-0.3, 0.3):
        d.line(turned([(-s * 0.42, s * k), (s * 0.42, s * k)], el["dir"], cx, cy), fill=(188, 168, 134), width=1)
    _arrow(d, lay, el, EXPRESS_FG, 2)


def paint_accelerator(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    _tile(d, lay, el, (226, 214, 244))
    cx, cy = lay.centre(el.at)
    s = lay.cell
    ux, uy = _COMPASS.get(str(el.fields.get("to", "e")), (1, 0))
    n = math.hypot(ux, uy)
    ux, uy = ux / n, uy / n
    for k in (0.0, 0.2):
        tip = (cx + ux * s * (0.38 - k), cy + uy * s * (0.38 - k))
        px, py = -uy * s * 0.18, ux * s * 0.18
        back = (tip[0] - ux * s * 0.2, tip[1] - uy * s * 0.2)
        d.line([(back[0] + px, back[1] + py), tip, (back[0] - px, back[1] - py)], fill=TELEPORTER, width=2)
    d.line([(cx - ux * s * 0.38, cy - uy * s * 0.38), (cx + ux * s * 0.3, cy + uy * s * 0.3)], fill=TELEPORTER,
           width=2)


def paint_jack(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    """A spring (a zigzag) under an arrow: slings a robot toward its ``dir``."""
    _tile(d, lay, el, (250, 236, 200))
    cx, cy = lay.centre(el.at)
    s = lay.cell
    zig = [(s * (0.18 if i % 2 else -0.18), s * (0.38 - i * 0.1)) for i in range(5)]
    d.line(turned(zig, el["dir"], cx, cy), fill=(120, 80, 20), width=2)
    tip = turned([(0, -s * 0.42), (s * 0.18, -s * 0.16), (-s * 0.18, -s * 0.16)], el["dir"], cx, cy)
    d.polygon(tip, fill=RED)


def paint_hydraulic_pusher(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    s = lay.cell
    mount = opposite(el["dir"])
    depth = max(5, s * 6 // 32)
    a, b = side_line(lay, el.at, mount, 0)
    c, e = side_line(lay, el.at, mount, depth)
    xs, ys = [a[0], b[0], c[0], e[0]], [a[1], b[1], c[1], e[1]]
    d.rectangle([min(xs), min(ys), max(xs), max(ys)], fill=(244, 192, 0), outline=INK)
    _arrow(d, lay, el, (120, 90, 0), 2, scale=0.7)
    _pips(d, lay, el, el["phases"])


def paint_piston(d: ImageDraw.ImageDraw, lay: Layout, el: Element, look: Hashable = "up") -> None:
    """Up: a raised block in its colour casting a shadow, a white arrow the way it slides robots off. Down:
    flat floor with the block's outline and a small arrow in its colour."""
    colour = PISTON.get(str(el.fields.get("colour")), MACHINE)
    x, y = lay.origin(el.at)
    s = lay.cell
    if look == "down":
        d.rectangle([x + 4, y + 4, x + s - 4, y + s - 4], fill=_mix(colour, WHITE, 0.78), outline=colour, width=2)
        _arrow(d, lay, el, colour, 1, scale=0.45)
        return
    d.rectangle([x + 6, y + 6, x + s - 2, y + s - 2], fill=PISTON_SHADOW)
    d.rectangle([x + 3, y + 3, x + s - 5, y + s - 5], fill=colour, outline=INK)
    d.line([(x + 4, y + s - 6), (x + 4, y + 4), (x + s - 6, y + 4)], fill=_mix(colour, WHITE, 0.55), width=1)
    _arrow(d, lay, el, WHITE, 1, scale=0.6)


def _mix(a: RGB, b: RGB, k: float) -> RGB:
    return (round(a[0] + (b[0] - a[0]) * k), round(a[1] + (b[1] - a[1]) * k), round(a[2] + (b[2] - a[2]) * k))


def paint_ventilator(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    """A fan (three blades) blowing toward ``dir``."""
    cx, cy = lay.centre(el.at)
    s = lay.cell
    _disc(d, cx, cy, s * 0.36, (220, 230, 240), (90, 110, 140))
    for k in range(3):
        a = math.radians(k * 120)
        d.pieslice([cx - s * 0.3, cy - s * 0.3, cx + s * 0.3, cy + s * 0.3], math.degrees(a), math.degrees(a) + 40,
                   fill=(90, 110, 140))
    d.polygon(turned([(0, -s * 0.46), (s * 0.12, -s * 0.3), (-s * 0.12, -s * 0.3)], el["dir"], cx, cy), fill=INK)
    _pips(d, lay, el, el["phases"])


def paint_magnet(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    """A horseshoe magnet."""
    cx, cy = lay.centre(el.at)
    s = lay.cell
    r = s * 0.26
    d.arc([cx - r, cy - r * 0.9, cx + r, cy + r * 1.1], 0, 180, fill=MAGNET, width=max(3, s // 8))
    w = max(3, s // 8)
    d.rectangle([cx - r - w / 2, cy - s * 0.3, cx - r + w / 2, cy + r * 0.1], fill=MAGNET)
    d.rectangle([cx + r - w / 2, cy - s * 0.3, cx + r + w / 2, cy + r * 0.1], fill=MAGNET)
    d.rectangle([cx - r - w / 2, cy - s * 0.38, cx - r + w / 2, cy - s * 0.3], fill=MAGNET_TIP)
    d.rectangle([cx + r - w / 2, cy - s * 0.38, cx + r + w / 2, cy - s * 0.3], fill=MAGNET_TIP)


def paint_mag_lock(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    """A padlock in the magnet's red: holds a robot fast in its phases."""
    cx, cy = lay.centre(el.at)
    s = lay.cell
    d.arc([cx - s * 0.14, cy - s * 0.34, cx + s * 0.14, cy - s * 0.02], 180, 360, fill=INK, width=2)
    d.line([(cx - s * 0.14, cy - s * 0.18), (cx - s * 0.14, cy - s * 0.04)], fill=INK, width=2)
    d.line([(cx + s * 0.14, cy - s * 0.18), (cx + s * 0.14, cy - s * 0.04)], fill=INK, width=2)
    d.rectangle([cx - s * 0.22, cy - s * 0.06, cx + s * 0.22, cy + s * 0.22], fill=MAGNET, outline=INK)
    _pips(d, lay, el, el["phases"], MAGNET)


def _gear_kind(d: ImageDraw.ImageDraw, lay: Layout, el: Element, right: bool, sweep: int) -> None:
    cx, cy = lay.centre(el.at)
    _gear(d, cx, cy, lay.cell)
    _turn_arrow(d, cx, cy, lay.cell * 0.18, right, GREEN if right else RED, sweep)


def paint_uturn_gear(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    cx, cy = lay.centre(el.at)
    s = lay.cell
    _gear(d, cx, cy, s)
    d.arc([cx - s * 0.14, cy - s * 0.16, cx + s * 0.14, cy + s * 0.12], 180, 360, fill=INK, width=2)
    d.line([(cx + s * 0.14, cy - s * 0.02), (cx + s * 0.14, cy + s * 0.16)], fill=INK, width=2)
    d.polygon([(cx - s * 0.24, cy), (cx - s * 0.04, cy), (cx - s * 0.14, cy + s * 0.16)], fill=INK)


def paint_crossgear(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    cx, cy = lay.centre(el.at)
    s = lay.cell
    _gear_kind(d, lay, el, el["turn"] == "right", 270)
    d.line([(cx - s * 0.44, cy), (cx - s * 0.3, cy)], fill=GEAR_EDGE, width=2)
    d.line([(cx + s * 0.3, cy), (cx + s * 0.44, cy)], fill=GEAR_EDGE, width=2)


def paint_big_gear(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    """Half of a big gear: its teeth, and a half-turn arrow pointing to its other square."""
    cx, cy = lay.centre(el.at)
    s = lay.cell
    _gear(d, cx, cy, s, 10)
    ox, oy = UNIT[el["dir"]]
    d.line([(cx, cy), (cx + ox * s * 0.46, cy + oy * s * 0.46)], fill=GEAR_EDGE, width=3)
    _turn_arrow(d, cx, cy, s * 0.16, True, GREEN, 180)


def paint_turret(d: ImageDraw.ImageDraw, lay: Layout, el: Element, look: Hashable = None) -> None:
    """A gun in a pit, its barrel the way it points (``look``: where it points now; its ``dir`` at first)."""
    _pit(d, lay, el)
    cx, cy = lay.centre(el.at)
    s = lay.cell
    way = el["dir"] if look is None else int(look)  # type: ignore[call-overload]
    _disc(d, cx, cy, s * 0.24, (130, 0, 0), INK)
    d.line(turned([(0, 0), (0, -s * 0.44)], way, cx, cy), fill=(130, 0, 0), width=max(3, s // 9))


# -- teleporters and portals -------------------------------------------------------------------------------
def paint_hp_teleporter(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    cx, cy = lay.centre(el.at)
    s = lay.cell
    for k in (0.42, 0.28):
        _disc(d, cx, cy, s * k, None, TELEPORTER, 2)
    d.polygon([(cx - s * 0.06, cy - s * 0.16), (cx + s * 0.08, cy - s * 0.02), (cx - s * 0.02, cy - s * 0.02),
               (cx + s * 0.06, cy + s * 0.18), (cx - s * 0.1, cy + s * 0.02), (cx, cy + s * 0.02)], fill=BOLT,
              outline=TELEPORTER)
    _number(d, lay, el, f"+{el.fields.get('bonus', 2)}", TELEPORTER)


def paint_portal(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    cx, cy = lay.centre(el.at)
    s = lay.cell
    d.ellipse([cx - s * 0.3, cy - s * 0.4, cx + s * 0.3, cy + s * 0.4], fill=(200, 240, 246), outline=PORTAL,
              width=3)
    d.ellipse([cx - s * 0.14, cy - s * 0.22, cx + s * 0.14, cy + s * 0.22], outline=PORTAL, width=1)
    _number(d, lay, el, el["pair"], PORTAL)


# -- beams -------------------------------------------------------------------------------------------------
def paint_melting_beam(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    x, y = lay.origin(el.at)
    s = lay.cell
    zig = [(x + 2 + i * (s - 4) / 6, y + s * (0.4 if i % 2 else 0.6)) for i in range(7)]
    d.line(zig, fill=BEAM_MELT, width=3)


def paint_radio_beam(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    cx, cy = lay.centre(el.at)
    s = lay.cell
    for r in (0.16, 0.28, 0.4):
        d.arc([cx - s * r, cy - s * r + s * 0.14, cx + s * r, cy + s * r + s * 0.14], 225, 315, fill=BEAM_RADIO,
              width=2)
    _disc(d, cx, cy + s * 0.14, s * 0.05, BEAM_RADIO)


def paint_light_barrier(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    x, y = lay.origin(el.at)
    s = lay.cell
    for i in range(0, 6, 2):
        d.line([(x + 2 + i * (s - 4) / 6, y + s / 2), (x + 2 + (i + 1) * (s - 4) / 6, y + s / 2)], fill=(230, 30, 30),
               width=2)
    d.rectangle([x + 1, y + s * 0.38, x + 4, y + s * 0.62], fill=INK)
    d.rectangle([x + s - 4, y + s * 0.38, x + s - 1, y + s * 0.62], fill=INK)


# -- walls -------------------------------------------------------------------------------------------------
def paint_force_field(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    _bars(d, lay, el, el["sides"], FORCE, lay.cell / 8, "dashed")


def paint_loophole(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    _bars(d, lay, el, el["sides"], WALLISH, lay.cell / 7, "dashed")


def paint_efence(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    _bars(d, lay, el, el["sides"], FENCE, lay.cell / 6, "zigzag")
    _pips(d, lay, el, el["phases"], FENCE)


def paint_spiky_wall(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    _bars(d, lay, el, el["sides"], WALLISH, lay.cell / 9, "spiked")


def paint_padded_wall(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    _bars(d, lay, el, el["sides"], PAD_LINE, lay.cell / 5)


def paint_mirror(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    _bars(d, lay, el, el["sides"], (150, 200, 230), lay.cell / 6)
    _bars(d, lay, el, el["sides"], WHITE, lay.cell / 16)


def paint_door(d: ImageDraw.ImageDraw, lay: Layout, el: Element, look: Hashable = "rest") -> None:
    """Two leaves on each side, a gap between them; pips: the phases it is open. In a register phase: open,
    the leaves folded back to the corners; shut, one bar the whole side."""
    w = lay.cell / 7
    if look == "shut":
        _bars(d, lay, el, el["sides"], DOOR, w + 1)
    elif look == "open":
        ww = max(2, round(w * 0.8))
        for side in el["sides"]:
            (x1, y1), (x2, y2) = side_line(lay, el.at, side, 1)
            ix, iy = UNIT[opposite(side)]
            reach = lay.cell * 0.26
            for (ex, ey), (tx, ty) in (((x1, y1), (x2, y2)), ((x2, y2), (x1, y1))):
                ux, uy = (tx - ex) / lay.cell, (ty - ey) / lay.cell  # along the side, toward the other end
                d.line([(ex, ey), (ex + (ix + ux) * reach, ey + (iy + uy) * reach)], fill=DOOR, width=ww)
    else:
        _bars(d, lay, el, el["sides"], DOOR, w, "dashed")
    _pips(d, lay, el, el["open"], DOOR)


def paint_one_way_wall(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    side = el["side"]
    _bars(d, lay, el, [side], WALLISH, lay.cell / 9)
    cx, cy = lay.centre(el.at)
    s = lay.cell
    d.polygon(turned([(0, -s * 0.36), (s * 0.14, -s * 0.2), (-s * 0.14, -s * 0.2)], side, cx, cy), fill=GREEN)


def paint_copy_machine(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    """A box in the wall on its ``dir`` side, with a round button."""
    s = lay.cell
    a, b = side_line(lay, el.at, el["dir"], 0)
    c, e = side_line(lay, el.at, el["dir"], s * 0.3)
    xs, ys = [a[0], b[0], c[0], e[0]], [a[1], b[1], c[1], e[1]]
    d.rectangle([min(xs), min(ys), max(xs), max(ys)], fill=MACHINE, outline=INK)
    mx, my = (c[0] + e[0]) / 2, (c[1] + e[1]) / 2
    _disc(d, mx, my, s * 0.09, RED, INK)


# -- sites -------------------------------------------------------------------------------------------------
def paint_energizer(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    _tile(d, lay, el, (255, 246, 200))
    cx, cy = lay.centre(el.at)
    s = lay.cell
    d.polygon([(cx + s * 0.06, cy - s * 0.38), (cx - s * 0.2, cy + s * 0.04), (cx - s * 0.02, cy + s * 0.04),
               (cx - s * 0.08, cy + s * 0.38), (cx + s * 0.2, cy - s * 0.06), (cx + s * 0.02, cy - s * 0.06)],
              fill=BOLT, outline=INK)


def paint_virtualizer(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    cx, cy = lay.centre(el.at)
    s = lay.cell
    r = s * 0.32
    for k in range(0, 360, 45):
        d.arc([cx - r, cy - r, cx + r, cy + r], k, k + 25, fill=(90, 110, 160), width=2)
    _disc(d, cx, cy, s * 0.12, (180, 190, 220))


def paint_antigravity(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    _tile(d, lay, el, (232, 236, 250))
    cx, cy = lay.centre(el.at)
    s = lay.cell
    for k in (-0.12, 0.12):
        y0 = cy + k * s
        d.line([(cx - s * 0.22, y0 + s * 0.1), (cx, y0 - s * 0.1), (cx + s * 0.22, y0 + s * 0.1)], fill=(90, 110, 200),
               width=2)


def paint_repeater(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    _tile(d, lay, el, (214, 236, 214))
    cx, cy = lay.centre(el.at)
    s = lay.cell
    for k in (-0.16, 0.14):
        d.polygon([(cx, cy + k * s - s * 0.14), (cx + s * 0.22, cy + k * s + s * 0.1),
                   (cx - s * 0.22, cy + k * s + s * 0.1)], fill=GREEN)


def paint_reset_site(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    _tile(d, lay, el, (184, 226, 168))
    cx, cy = lay.centre(el.at)
    s = lay.cell
    _turn_arrow(d, cx, cy, s * 0.22, True, (28, 96, 38), 150)
    _turn_arrow(d, cx, cy, s * 0.22, False, (28, 96, 38), 150)


def paint_chop_shop(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    """A repair-green square with an option card on it."""
    _tile(d, lay, el, (184, 226, 168))
    cx, cy = lay.centre(el.at)
    s = lay.cell
    d.rounded_rectangle([cx - s * 0.2, cy - s * 0.3, cx + s * 0.2, cy + s * 0.3], radius=s * 0.06,
                        fill=(240, 190, 20), outline=INK)
    _gear(d, cx, cy, s * 0.45, 8)


TILES: dict[str, Painter] = {
    "accelerator": paint_accelerator, "antigravity": paint_antigravity, "big_gear": paint_big_gear,
    "black_hole": paint_black_hole, "bridge": paint_bridge, "chop_shop": paint_chop_shop,
    "copy_machine": paint_copy_machine, "crossgear": paint_crossgear, "crumbly": paint_crumbly,
    "deep_water": paint_deep_water, "door": paint_door, "drain": paint_drain, "efence": paint_efence,
    "elevator": paint_elevator, "energizer": paint_energizer, "fast_ramp": paint_fast_ramp,
    "flamer": paint_flamer, "flip_belt": paint_flip_belt, "fog": paint_fog, "force_field": paint_force_field,
    "grave": paint_grave, "hp_teleporter": paint_hp_teleporter, "hydraulic_pusher": paint_hydraulic_pusher,
    "hydraulic_trapdoor": paint_hydraulic_trapdoor, "hyper": paint_hyper, "ice": paint_ice, "jack": paint_jack,
    "lava": paint_lava, "light_barrier": paint_light_barrier, "loophole": paint_loophole,
    "mag_lock": paint_mag_lock, "magnet": paint_magnet, "melting_beam": paint_melting_beam,
    "mirror": paint_mirror, "molten_ore": paint_molten_ore, "napalm": paint_napalm, "oil": paint_oil,
    "one_way_wall": paint_one_way_wall, "padded": paint_padded, "padded_wall": paint_padded_wall,
    "piston": paint_piston, "plate": paint_plate, "platform": paint_platform, "portal": paint_portal,
    "puddle": paint_puddle, "radiation": paint_radiation, "radio_beam": paint_radio_beam,
    "radioactive_waste": paint_radioactive_waste, "repeater": paint_repeater, "reset_site": paint_reset_site,
    "rotating_belt": paint_rotating_belt, "rotating_room": paint_rotating_room, "sand": paint_sand,
    "sluice": paint_sluice, "smoke": paint_smoke, "smokestack": paint_smokestack, "soap": paint_soap,
    "soporific_gas": paint_soporific_gas, "spiky_wall": paint_spiky_wall, "trapdoor": paint_trapdoor,
    "turret": paint_turret, "uturn_gear": paint_uturn_gear, "ventilator": paint_ventilator,
    "virtualizer": paint_virtualizer, "waterfall": paint_waterfall,
}
