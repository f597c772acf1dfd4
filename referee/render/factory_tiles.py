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
from collections.abc import Hashable

from PIL import ImageDraw

from ..engine import Element
from ..engine.geometry import opposite
from .colours import INK, RGB, TELEPORTER, WHITE
from .factory_floors import (
    paint_black_hole,
    paint_bridge,
    paint_crumbly,
    paint_deep_water,
    paint_drain,
    paint_elevator,
    paint_flamer,
    paint_fog,
    paint_grave,
    paint_hydraulic_trapdoor,
    paint_ice,
    paint_lava,
    paint_molten_ore,
    paint_napalm,
    paint_oil,
    paint_padded,
    paint_plate,
    paint_platform,
    paint_puddle,
    paint_radiation,
    paint_radioactive_waste,
    paint_rotating_room,
    paint_sand,
    paint_sluice,
    paint_smoke,
    paint_smokestack,
    paint_soap,
    paint_soporific_gas,
    paint_trapdoor,
    paint_waterfall,
)
from .factory_walls import (
    paint_copy_machine,
    paint_door,
    paint_efence,
    paint_force_field,
    paint_hp_teleporter,
    paint_light_barrier,
    paint_loophole,
    paint_melting_beam,
    paint_mirror,
    paint_one_way_wall,
    paint_padded_wall,
    paint_portal,
    paint_radio_beam,
    paint_spiky_wall,
)
from .layout import UNIT, Layout, side_line, turned
from .tile_strokes import (
    BELT_BG,
    BELT_FG,
    BOLT,
    COMPASS,
    EXPRESS_BG,
    EXPRESS_FG,
    GEAR_EDGE,
    GREEN,
    HYPER_BG,
    HYPER_FG,
    MACHINE,
    MAGNET,
    MAGNET_TIP,
    PISTON,
    PISTON_SHADOW,
    RED,
    Painter,
    arrow,
    disc,
    gear,
    pips,
    pit,
    tile,
    turn_arrow,
)


# -- belts and movers --------------------------------------------------------------------------------------
def paint_hyper(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    tile(d, lay, el, HYPER_BG)
    arrow(d, lay, el, HYPER_FG, 3)


def paint_flip_belt(d: ImageDraw.ImageDraw, lay: Layout, el: Element, look: Hashable = False) -> None:
    """A belt's arrow the way it runs now (``look``: turned round), a hollow head at its tail."""
    way = opposite(el["dir"]) if look else el["dir"]
    tile(d, lay, el, BELT_BG)
    arrow(d, lay, el, BELT_FG, 1, way)
    cx, cy = lay.centre(el.at)
    s = lay.cell
    tail = s * 0.42
    d.polygon(turned([(0, tail), (s * 0.16, tail - s * 0.16), (-s * 0.16, tail - s * 0.16)], way, cx, cy),
              outline=BELT_FG, fill=BELT_BG)


def paint_rotating_belt(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    express = bool(el.fields.get("express"))
    tile(d, lay, el, EXPRESS_BG if express else BELT_BG)
    colour = EXPRESS_FG if express else BELT_FG
    arrow(d, lay, el, colour, 2 if express else 1, scale=0.8)
    x, y = lay.origin(el.at)
    right = el["turn"] == "right"
    turn_arrow(d, x + lay.cell * 0.78, y + lay.cell * 0.78, lay.cell * 0.13, right, GREEN if right else RED, 270, 1)


def paint_fast_ramp(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    tile(d, lay, el, (214, 196, 164))
    s = lay.cell
    cx, cy = lay.centre(el.at)
    for k in (-0.3, 0.3):
        d.line(turned([(-s * 0.42, s * k), (s * 0.42, s * k)], el["dir"], cx, cy), fill=(188, 168, 134), width=1)
    arrow(d, lay, el, EXPRESS_FG, 2)


def paint_accelerator(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    tile(d, lay, el, (226, 214, 244))
    cx, cy = lay.centre(el.at)
    s = lay.cell
    ux, uy = COMPASS.get(str(el.fields.get("to", "e")), (1, 0))
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
    tile(d, lay, el, (250, 236, 200))
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
    arrow(d, lay, el, (120, 90, 0), 2, scale=0.7)
    pips(d, lay, el, el["phases"])


def paint_piston(d: ImageDraw.ImageDraw, lay: Layout, el: Element, look: Hashable = "up") -> None:
    """Up: a raised block in its colour casting a shadow, a white arrow the way it slides robots off. Down:
    flat floor with the block's outline and a small arrow in its colour."""
    colour = PISTON.get(str(el.fields.get("colour")), MACHINE)
    x, y = lay.origin(el.at)
    s = lay.cell
    if look == "down":
        d.rectangle([x + 4, y + 4, x + s - 4, y + s - 4], fill=mix(colour, WHITE, 0.78), outline=colour, width=2)
        arrow(d, lay, el, colour, 1, scale=0.45)
        return
    d.rectangle([x + 6, y + 6, x + s - 2, y + s - 2], fill=PISTON_SHADOW)
    d.rectangle([x + 3, y + 3, x + s - 5, y + s - 5], fill=colour, outline=INK)
    d.line([(x + 4, y + s - 6), (x + 4, y + 4), (x + s - 6, y + 4)], fill=mix(colour, WHITE, 0.55), width=1)
    arrow(d, lay, el, WHITE, 1, scale=0.6)


def mix(a: RGB, b: RGB, k: float) -> RGB:
    return (round(a[0] + (b[0] - a[0]) * k), round(a[1] + (b[1] - a[1]) * k), round(a[2] + (b[2] - a[2]) * k))


def paint_ventilator(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    """A fan (three blades) blowing toward ``dir``."""
    cx, cy = lay.centre(el.at)
    s = lay.cell
    disc(d, cx, cy, s * 0.36, (220, 230, 240), (90, 110, 140))
    for k in range(3):
        a = math.radians(k * 120)
        d.pieslice([cx - s * 0.3, cy - s * 0.3, cx + s * 0.3, cy + s * 0.3], math.degrees(a), math.degrees(a) + 40,
                   fill=(90, 110, 140))
    d.polygon(turned([(0, -s * 0.46), (s * 0.12, -s * 0.3), (-s * 0.12, -s * 0.3)], el["dir"], cx, cy), fill=INK)
    pips(d, lay, el, el["phases"])


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
    pips(d, lay, el, el["phases"], MAGNET)


def gear_kind(d: ImageDraw.ImageDraw, lay: Layout, el: Element, right: bool, sweep: int) -> None:
    cx, cy = lay.centre(el.at)
    gear(d, cx, cy, lay.cell)
    turn_arrow(d, cx, cy, lay.cell * 0.18, right, GREEN if right else RED, sweep)


def paint_uturn_gear(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    cx, cy = lay.centre(el.at)
    s = lay.cell
    gear(d, cx, cy, s)
    d.arc([cx - s * 0.14, cy - s * 0.16, cx + s * 0.14, cy + s * 0.12], 180, 360, fill=INK, width=2)
    d.line([(cx + s * 0.14, cy - s * 0.02), (cx + s * 0.14, cy + s * 0.16)], fill=INK, width=2)
    d.polygon([(cx - s * 0.24, cy), (cx - s * 0.04, cy), (cx - s * 0.14, cy + s * 0.16)], fill=INK)


def paint_crossgear(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    cx, cy = lay.centre(el.at)
    s = lay.cell
    gear_kind(d, lay, el, el["turn"] == "right", 270)
    d.line([(cx - s * 0.44, cy), (cx - s * 0.3, cy)], fill=GEAR_EDGE, width=2)
    d.line([(cx + s * 0.3, cy), (cx + s * 0.44, cy)], fill=GEAR_EDGE, width=2)


def paint_big_gear(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    """Half of a big gear: its teeth, and a half-turn arrow pointing to its other square."""
    cx, cy = lay.centre(el.at)
    s = lay.cell
    gear(d, cx, cy, s, 10)
    ox, oy = UNIT[el["dir"]]
    d.line([(cx, cy), (cx + ox * s * 0.46, cy + oy * s * 0.46)], fill=GEAR_EDGE, width=3)
    turn_arrow(d, cx, cy, s * 0.16, True, GREEN, 180)


def paint_turret(d: ImageDraw.ImageDraw, lay: Layout, el: Element, look: Hashable = None) -> None:
    """A gun in a pit, its barrel the way it points (``look``: where it points now; its ``dir`` at first)."""
    pit(d, lay, el)
    cx, cy = lay.centre(el.at)
    s = lay.cell
    way = el["dir"] if look is None else int(look)  # type: ignore[call-overload]
    disc(d, cx, cy, s * 0.24, (130, 0, 0), INK)
    d.line(turned([(0, 0), (0, -s * 0.44)], way, cx, cy), fill=(130, 0, 0), width=max(3, s // 9))


# -- sites -------------------------------------------------------------------------------------------------
def paint_energizer(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    tile(d, lay, el, (255, 246, 200))
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
    disc(d, cx, cy, s * 0.12, (180, 190, 220))


def paint_antigravity(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    tile(d, lay, el, (232, 236, 250))
    cx, cy = lay.centre(el.at)
    s = lay.cell
    for k in (-0.12, 0.12):
        y0 = cy + k * s
        d.line([(cx - s * 0.22, y0 + s * 0.1), (cx, y0 - s * 0.1), (cx + s * 0.22, y0 + s * 0.1)], fill=(90, 110, 200),
               width=2)


def paint_repeater(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    tile(d, lay, el, (214, 236, 214))
    cx, cy = lay.centre(el.at)
    s = lay.cell
    for k in (-0.16, 0.14):
        d.polygon([(cx, cy + k * s - s * 0.14), (cx + s * 0.22, cy + k * s + s * 0.1),
                   (cx - s * 0.22, cy + k * s + s * 0.1)], fill=GREEN)


def paint_reset_site(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    tile(d, lay, el, (184, 226, 168))
    cx, cy = lay.centre(el.at)
    s = lay.cell
    turn_arrow(d, cx, cy, s * 0.22, True, (28, 96, 38), 150)
    turn_arrow(d, cx, cy, s * 0.22, False, (28, 96, 38), 150)


def paint_chop_shop(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
    """A repair-green square with an option card on it."""
    tile(d, lay, el, (184, 226, 168))
    cx, cy = lay.centre(el.at)
    s = lay.cell
    d.rounded_rectangle([cx - s * 0.2, cy - s * 0.3, cx + s * 0.2, cy + s * 0.3], radius=s * 0.06,
                        fill=(240, 190, 20), outline=INK)
    gear(d, cx, cy, s * 0.45, 8)


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
