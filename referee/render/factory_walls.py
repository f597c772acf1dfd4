"""The drawn tiles of walls, beams, teleporters and portals (doors, force fields, mirrors, melting and radio beams...):
see :mod:`.factory_tiles`."""

from __future__ import annotations

from collections.abc import Hashable

from PIL import ImageDraw

from ..engine import Element
from ..engine.geometry import opposite
from .colours import INK, TELEPORTER, WHITE
from .layout import UNIT, Layout, side_line, turned
from .tile_strokes import (
    BEAM_MELT,
    BEAM_RADIO,
    BOLT,
    DOOR,
    FENCE,
    FORCE,
    GREEN,
    MACHINE,
    PAD_LINE,
    PORTAL,
    RED,
    WALLISH,
    bars,
    disc,
    number,
    pips,
)


# -- teleporters and portals -------------------------------------------------------------------------------
def paint_hp_teleporter(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    cx, cy = lay.centre(el.at)
    s = lay.cell
    for k in (0.42, 0.28):
        disc(d, cx, cy, s * k, None, TELEPORTER, 2)
    d.polygon([(cx - s * 0.06, cy - s * 0.16), (cx + s * 0.08, cy - s * 0.02), (cx - s * 0.02, cy - s * 0.02),
               (cx + s * 0.06, cy + s * 0.18), (cx - s * 0.1, cy + s * 0.02), (cx, cy + s * 0.02)], fill=BOLT,
              outline=TELEPORTER)
    number(d, lay, el, f"+{el.fields.get('bonus', 2)}", TELEPORTER)


def paint_portal(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    cx, cy = lay.centre(el.at)
    s = lay.cell
    d.ellipse([cx - s * 0.3, cy - s * 0.4, cx + s * 0.3, cy + s * 0.4], fill=(200, 240, 246), outline=PORTAL,
              width=3)
    d.ellipse([cx - s * 0.14, cy - s * 0.22, cx + s * 0.14, cy + s * 0.22], outline=PORTAL, width=1)
    number(d, lay, el, el["pair"], PORTAL)


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
    disc(d, cx, cy + s * 0.14, s * 0.05, BEAM_RADIO)


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
    bars(d, lay, el, el["sides"], FORCE, lay.cell / 8, "dashed")


def paint_loophole(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    bars(d, lay, el, el["sides"], WALLISH, lay.cell / 7, "dashed")


def paint_efence(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    bars(d, lay, el, el["sides"], FENCE, lay.cell / 6, "zigzag")
    pips(d, lay, el, el["phases"], FENCE)


def paint_spiky_wall(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    bars(d, lay, el, el["sides"], WALLISH, lay.cell / 9, "spiked")


def paint_padded_wall(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    bars(d, lay, el, el["sides"], PAD_LINE, lay.cell / 5)


def paint_mirror(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    bars(d, lay, el, el["sides"], (150, 200, 230), lay.cell / 6)
    bars(d, lay, el, el["sides"], WHITE, lay.cell / 16)


def paint_door(d: ImageDraw.ImageDraw, lay: Layout, el: Element, look: Hashable = "rest") -> None:
    """Two leaves on each side, a gap between them; pips: the phases it is open. In a register phase: open,
    the leaves folded back to the corners; shut, one bar the whole side."""
    w = lay.cell / 7
    if look == "shut":
        bars(d, lay, el, el["sides"], DOOR, w + 1)
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
        bars(d, lay, el, el["sides"], DOOR, w, "dashed")
    pips(d, lay, el, el["open"], DOOR)


def paint_one_way_wall(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    side = el["side"]
    bars(d, lay, el, [side], WALLISH, lay.cell / 9)
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
    disc(d, mx, my, s * 0.09, RED, INK)
