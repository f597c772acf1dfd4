"""How each element kind looks on the floor: one painter per kind the renderer knows (the classic ones in
:mod:`.classic_tiles`, the expansions' in :mod:`.factory_tiles`), and a look made from a kind's registry metadata
for any other (:func:`paint_default`), drawn in the order its rank gives it (:func:`draw_order`); the floor itself
is put together by :func:`.board_image.draw_floor`.
"""

from __future__ import annotations

import colorsys
import hashlib
from collections.abc import Callable, Hashable, Sequence

from PIL import ImageDraw

from ..engine import Element
from ..engine.kinds import KINDS
from ..engine.looks import resting
from .classic_tiles import (
    BARRICADE,
    BARRICADE_BROKEN,
    paint_barricade,
    paint_belt,
    paint_crusher,
    paint_current,
    paint_emitter,
    paint_express,
    paint_flag,
    paint_gear,
    paint_level,
    paint_pit,
    paint_pusher,
    paint_ramp,
    paint_randomizer,
    paint_repair,
    paint_start,
    paint_teleporter,
    paint_water,
    tile,
)
from .colours import BACKGROUND, RGB, UNKNOWN
from .factory_tiles import TILES, paint_door, paint_flip_belt, paint_piston, paint_turret
from .fonts import font
from .layout import Layout, side_line, turned

__all__ = ["ACTING", "ACTIVE", "BARRICADE", "BARRICADE_BROKEN", "LOOK_PAINTERS", "PAINTERS", "LookPainter",
           "Painter", "draw_order", "paint_default", "paint_look", "painter_for", "under_beams"]

Painter = Callable[[ImageDraw.ImageDraw, Layout, Element], None]
LookPainter = Callable[[ImageDraw.ImageDraw, Layout, Element, Hashable], None]


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
        tile(d, lay, el.at, _kind_colour(el.kind, 0.84))
    if "sides" in fields:
        w = max(3, s // 9)
        for side in fields["sides"]:
            a, b = side_line(lay, el.at, side, w / 2 + 1)
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
PAINTERS.update(TILES)  # the expansions' kinds (RoboFactory...): drawn tiles, no letters

#: a square whose element acts in the register phase shown (a flamer lit, a trapdoor open): a frame this colour
ACTIVE: RGB = (255, 96, 0)


def _acting(base: Painter) -> LookPainter:
    """A kind that acts in some register phases: its look, framed in the phases it acts in."""
    def paint(d: ImageDraw.ImageDraw, lay: Layout, el: Element, look: Hashable) -> None:
        base(d, lay, el)
        if look:
            x, y = lay.origin(el.at)
            s = lay.cell
            d.rectangle([x + 1, y + 1, x + s - 1, y + s - 1], outline=ACTIVE, width=2)
    return paint


#: the looks of kinds whose look changes during a turn (:mod:`referee.engine.looks`), given the look to draw
LOOK_PAINTERS: dict[str, LookPainter] = {
    "barricade": paint_barricade, "piston": paint_piston, "door": paint_door, "turret": paint_turret,
    "flip_belt": paint_flip_belt,
}
#: kinds that act in some register phases, framed in :data:`ACTIVE` in the phases they act in
ACTING = ("flamer", "napalm", "elevator", "mag_lock", "efence", "lava", "crusher", "pusher", "hydraulic_pusher",
          "ventilator", "sluice", "trapdoor", "bridge")
for _kind in ACTING:
    LOOK_PAINTERS[_kind] = _acting(PAINTERS[_kind])


def _at_rest(paint: LookPainter) -> Painter:
    def rest(d: ImageDraw.ImageDraw, lay: Layout, el: Element) -> None:
        paint(d, lay, el, resting(el))
    return rest


for _kind in ("barricade", "piston", "door", "turret", "flip_belt"):
    PAINTERS[_kind] = _at_rest(LOOK_PAINTERS[_kind])


def paint_look(d: ImageDraw.ImageDraw, lay: Layout, el: Element, look: Hashable) -> None:
    """Draw ``el`` as it looks at a moment of the turn (``look``: :func:`referee.engine.looks.look_of`)."""
    got = LOOK_PAINTERS.get(el.kind)
    if got is None:
        painter_for(el.kind)(d, lay, el)
    else:
        got(d, lay, el, look)


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
