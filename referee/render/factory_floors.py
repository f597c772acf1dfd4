"""The drawn tiles of the floor kinds (water, ice, oil, lava, pits and trapdoors, gas...): see :mod:`.factory_tiles`."""

from __future__ import annotations

import math

from PIL import ImageDraw

from ..engine import Element
from .colours import INK, PIT, WATER, WAVE, WHITE
from .layout import Layout, turned
from .tile_strokes import (
    DEEP_WATER,
    DEEP_WAVE,
    FLAME,
    GAS,
    GRAVE_STONE,
    ICE,
    ICE_LINE,
    LAVA,
    LAVA_CRUST,
    MACHINE,
    MACHINE_BG,
    OIL,
    PAD,
    PAD_LINE,
    PLATE,
    RADIATION,
    SAND,
    SAND_LINE,
    SMOKE,
    arrow,
    cloud,
    disc,
    flame,
    hatch,
    number,
    pips,
    pit,
    tile,
    trefoil,
    turn_arrow,
    waves,
)


# -- floors ------------------------------------------------------------------------------------------------
def paint_deep_water(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    tile(d, lay, el, DEEP_WATER)
    waves(d, lay, el, DEEP_WAVE, (0.22, 0.42, 0.62, 0.82))


def paint_puddle(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    cx, cy = lay.centre(el.at)
    s = lay.cell
    d.ellipse([cx - s * 0.36, cy - s * 0.22, cx + s * 0.36, cy + s * 0.24], fill=WATER, outline=WAVE)


def paint_waterfall(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    tile(d, lay, el, WATER)
    waves(d, lay, el, WAVE, (0.3, 0.7))
    arrow(d, lay, el, DEEP_WAVE, 3)


def paint_ice(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    tile(d, lay, el, ICE)
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
    disc(d, cx + s * 0.26, cy + s * 0.2, s * 0.1, OIL)
    d.arc([cx - s * 0.26, cy - s * 0.18, cx + s * 0.02, cy + s * 0.04], 190, 260, fill=(150, 150, 170), width=2)


def paint_soap(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    tile(d, lay, el, (236, 244, 250))
    cx, cy = lay.centre(el.at)
    s = lay.cell
    for dx, dy, r in ((-0.16, 0.1, 0.14), (0.14, -0.06, 0.17), (0.06, 0.24, 0.08), (-0.2, -0.2, 0.08)):
        disc(d, cx + dx * s, cy + dy * s, r * s, None, (120, 150, 200), 1)


def paint_sand(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    """Tilted ground: tan, with chevrons pointing downhill."""
    tile(d, lay, el, SAND)
    cx, cy = lay.centre(el.at)
    s = lay.cell
    for k in (-0.18, 0.12):
        d.line(turned([(-s * 0.28, k * s + s * 0.16), (0, k * s), (s * 0.28, k * s + s * 0.16)], el["dir"], cx, cy),
               fill=SAND_LINE, width=2)


def paint_lava(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    tile(d, lay, el, LAVA_CRUST)
    cx, cy = lay.centre(el.at)
    s = lay.cell
    d.polygon([(cx - s * 0.3, cy - s * 0.1), (cx - s * 0.05, cy - s * 0.32), (cx + s * 0.32, cy - s * 0.14),
               (cx + s * 0.22, cy + s * 0.2), (cx - s * 0.2, cy + s * 0.18)], fill=LAVA)
    if el.fields.get("reach") == "around":
        d.rectangle([cx - s * 0.46, cy - s * 0.46, cx + s * 0.46, cy + s * 0.46], outline=LAVA, width=1)
    pips(d, lay, el, el["phases"], LAVA)


def paint_molten_ore(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    tile(d, lay, el, LAVA)
    arrow(d, lay, el, LAVA_CRUST, 1)


def paint_crumbly(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    tile(d, lay, el, (200, 190, 176))
    x, y = lay.origin(el.at)
    s = lay.cell
    crack = [(x + s * 0.2, y + s * 0.15), (x + s * 0.42, y + s * 0.42), (x + s * 0.3, y + s * 0.6),
             (x + s * 0.55, y + s * 0.85)]
    d.line(crack, fill=(90, 70, 50), width=2)
    d.line([(x + s * 0.42, y + s * 0.42), (x + s * 0.8, y + s * 0.35)], fill=(90, 70, 50), width=1)


def paint_padded(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    tile(d, lay, el, PAD)
    x, y = lay.origin(el.at)
    s = lay.cell
    for k in (0.33, 0.66):
        d.line([(x + 2, y + s * k), (x + s - 2, y + s * k)], fill=PAD_LINE, width=1)
        d.line([(x + s * k, y + 2), (x + s * k, y + s - 2)], fill=PAD_LINE, width=1)


def paint_plate(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    tile(d, lay, el, PLATE)
    x, y = lay.origin(el.at)
    s = lay.cell
    for px, py in ((0.18, 0.18), (0.82, 0.18), (0.18, 0.82), (0.82, 0.82)):
        disc(d, x + s * px, y + s * py, max(1.5, s / 16), (120, 124, 130))


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
    trefoil(d, cx, cy, lay.cell, RADIATION)


def paint_radioactive_waste(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    """A barrel with the trefoil on it."""
    cx, cy = lay.centre(el.at)
    s = lay.cell
    d.rounded_rectangle([cx - s * 0.3, cy - s * 0.38, cx + s * 0.3, cy + s * 0.38], radius=s * 0.08,
                        fill=RADIATION, outline=INK)
    trefoil(d, cx, cy, s * 0.7, RADIATION)


def paint_flamer(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    cx, cy = lay.centre(el.at)
    flame(d, cx, cy - lay.cell * 0.06, lay.cell)
    pips(d, lay, el, el["phases"], FLAME)


def paint_napalm(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    tile(d, lay, el, (250, 222, 190))
    cx, cy = lay.centre(el.at)
    s = lay.cell
    flame(d, cx - s * 0.14, cy - s * 0.04, s * 0.8)
    flame(d, cx + s * 0.16, cy - s * 0.04, s * 0.8)
    pips(d, lay, el, el["phases"], FLAME)


def paint_soporific_gas(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    cx, cy = lay.centre(el.at)
    cloud(d, cx, cy, lay.cell, GAS)
    s = lay.cell
    # "z z": three short strokes of a zigzag, drawn, not written
    d.line([(cx - s * 0.1, cy - s * 0.06), (cx + s * 0.06, cy - s * 0.06), (cx - s * 0.1, cy + s * 0.08),
            (cx + s * 0.06, cy + s * 0.08)], fill=(60, 90, 20), width=2)


def paint_smoke(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    cx, cy = lay.centre(el.at)
    cloud(d, cx, cy, lay.cell, SMOKE)


def paint_fog(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    tile(d, lay, el, (226, 228, 232))
    waves(d, lay, el, (170, 174, 180), (0.3, 0.5, 0.7))


def paint_smokestack(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    pit(d, lay, el)
    cx, cy = lay.centre(el.at)
    cloud(d, cx, cy, lay.cell * 0.8, SMOKE)


def paint_drain(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    pit(d, lay, el)
    x, y = lay.origin(el.at)
    s = lay.cell
    for k in (0.3, 0.5, 0.7):
        d.line([(x + s * k, y + s * 0.2), (x + s * k, y + s * 0.8)], fill=(150, 150, 150), width=2)


def paint_black_hole(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    cx, cy = lay.centre(el.at)
    s = lay.cell
    disc(d, cx, cy, s * 0.44, (90, 40, 120))
    disc(d, cx, cy, s * 0.3, (40, 10, 60))
    disc(d, cx, cy, s * 0.16, PIT)


def paint_trapdoor(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    pit(d, lay, el)
    hatch(d, lay, el, (140, 110, 70), 0.3)
    pips(d, lay, el, el["phases"])


def paint_bridge(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    pit(d, lay, el)
    x, y = lay.origin(el.at)
    s = lay.cell
    for k in (0.22, 0.42, 0.62):
        d.rectangle([x + 3, y + s * k, x + s - 3, y + s * k + s * 0.12], fill=(170, 130, 80))
    pips(d, lay, el, el["phases"])


def paint_elevator(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    tile(d, lay, el, MACHINE_BG)
    cx, cy = lay.centre(el.at)
    s = lay.cell
    d.polygon([(cx, cy - s * 0.34), (cx + s * 0.2, cy - s * 0.1), (cx - s * 0.2, cy - s * 0.1)], fill=MACHINE)
    d.polygon([(cx, cy + s * 0.2), (cx + s * 0.2, cy - s * 0.02), (cx - s * 0.2, cy - s * 0.02)], fill=MACHINE)
    pips(d, lay, el, el["phases"])


def paint_sluice(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    tile(d, lay, el, (176, 190, 200))
    x, y = lay.origin(el.at)
    s = lay.cell
    for k in (0.25, 0.45, 0.65):
        d.line([(x + 3, y + s * k), (x + s - 3, y + s * k)], fill=(90, 100, 120), width=2)
    pips(d, lay, el, el["closed"])


def paint_hydraulic_trapdoor(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    tile(d, lay, el, (150, 140, 120))
    hatch(d, lay, el, (90, 80, 60), 0.34)
    number(d, lay, el, el.fields.get("carry", 1))


def paint_platform(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    tile(d, lay, el, (200, 180, 150))
    x, y = lay.origin(el.at)
    s = lay.cell
    d.rectangle([x + 3, y + 3, x + s - 3, y + s - 3], outline=(120, 90, 50), width=1)
    area = el.fields.get("area", "middle")
    if area == "middle":
        cx, cy = lay.centre(el.at)
        d.polygon([(cx, cy - s * 0.14), (cx + s * 0.14, cy + s * 0.12), (cx - s * 0.14, cy + s * 0.12)],
                  fill=(120, 90, 50))
    else:
        arrow(d, lay, el, (120, 90, 50), 1, "nesw".index(area), 0.7)
    number(d, lay, el, el.fields.get("platform", 1))


def paint_rotating_room(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    tile(d, lay, el, (220, 214, 236))
    cx, cy = lay.centre(el.at)
    turn_arrow(d, cx, cy, lay.cell * 0.26, True, (100, 70, 160))
    pips(d, lay, el, (5,), (100, 70, 160))
