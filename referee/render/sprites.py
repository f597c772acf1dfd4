"""Robots drawn once and pasted (issue 46): a robot's look at a given place is the same pixels wherever it
stands, shifted by whole pixels, so each look is drawn once (per sub-pixel offset) and pasted after that.

A sprite is drawn twice, on two clear squares of different colours, with :func:`.robots.draw_robot` at the
same fraction of a pixel (and the same parity of whole pixels, for the rounding of text positions) as the
place it stands for. A pixel both drawings agree on is the robot's; a pixel that still shows each square's own
colour is not; a pixel that is neither (something blended into what was under it) makes the look one that is
not kept: such a robot is drawn as before. Pasted through its mask (0 or 255), a sprite sets exactly the
pixels drawing it would have set, to the same colours; ``tests/render/test_sprites.py`` compares the two.

The in-between frames of the GIF paste a sprite mapped to the frames' palette (mapping to a palette is done
pixel by pixel, so the robot's pixels mapped alone are what the whole frame mapped would give them).
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field

from PIL import Image, ImageChops, ImageDraw

from .colours import RGB
from .robots import Look, draw_robot

#: the two clear colours a sprite is drawn on (each differs from the other in every channel)
_CLEAR_A: RGB = (1, 2, 3)
_CLEAR_B: RGB = (254, 251, 250)
#: looks kept (each a few KB, with its mapped copies); the oldest first out
MAX_SPRITES = 1024
#: robots are drawn directly while False (what the sprites are compared with)
ENABLED = True


@dataclass(slots=True)
class Sprite:
    """A look drawn once: its pixels, which of them it sets, and where it goes from the place's whole pixels."""

    image: Image.Image
    mask: Image.Image
    dx: int
    dy: int
    #: the palette image -> the look's pixels mapped to it
    mapped: dict[int, tuple[Image.Image, Image.Image]] = field(default_factory=dict)

    def at(self, cx: float, cy: float) -> tuple[int, int]:
        return math.floor(cx) + self.dx, math.floor(cy) + self.dy

    def in_palette(self, palette: Image.Image) -> Image.Image:
        """The sprite's pixels mapped to ``palette`` (kept with the palette, while it lives)."""
        got = self.mapped.get(id(palette))
        if got is None or got[1] is not palette:
            got = (self.image.quantize(palette=palette, dither=Image.Dither.NONE), palette)
            self.mapped[id(palette)] = got
        return got[0]


_KEPT: OrderedDict[tuple[object, ...], Sprite | None] = OrderedDict()


def _margin(size: float) -> int:
    """Room around a robot's centre on its sprite: its nose, its chips and outlines, and some to spare."""
    return math.ceil(size * 0.75) + 4


def _spot(whole: int, m: int) -> int:
    """Where on its sprite a robot is drawn whose centre's whole pixel on the board is ``whole``: in the same
    power-of-two range (so every sum of the centre and an offset is a float on the same grid, and rounds the
    same way shifted by whole pixels), near its low end, with the same parity (Python rounds halves to even
    where text is placed); where the robot's reach crosses such a range's end, or lies below 128, at ``whole``
    itself."""
    if whole < 128:
        return whole
    low = 1 << (whole.bit_length() - 1)
    if whole - m < low or whole + m + 2 >= 2 * low:
        return whole
    return low + m + (whole - low - m) % 2


def key_of(cx: float, cy: float, look: Look) -> tuple[object, ...]:
    """What a sprite of ``look`` centred on (cx, cy) is kept under: the look, the centre's fractions and where
    on the sprite it is drawn (:func:`_spot`: its range and parity, or the centre's whole pixels)."""
    m = _margin(look[0])
    wx, wy = math.floor(cx), math.floor(cy)
    return (look, cx - wx, cy - wy, wx if _spot(wx, m) == wx else (wx.bit_length(), wx % 2),
            wy if _spot(wy, m) == wy else (wy.bit_length(), wy % 2))


def sprite(cx: float, cy: float, look: Look, make: bool = True, key: tuple[object, ...] | None = None
           ) -> Sprite | None:
    """The sprite of ``look`` for a robot centred on (cx, cy), drawn the first time (``make``: else None when it
    was not drawn before); None too for a look that is not kept (draw it). ``key``: its :func:`key_of`."""
    key = key or key_of(cx, cy, look)
    if key in _KEPT:
        _KEPT.move_to_end(key)
        return _KEPT[key]
    if not make:
        return None
    m = _margin(look[0])
    wx, wy = math.floor(cx), math.floor(cy)
    sx, sy = _spot(wx, m), _spot(wy, m)
    got = _drawn(look, sx + (cx - wx), sy + (cy - wy), sx, sy, m)
    _KEPT[key] = got
    if len(_KEPT) > MAX_SPRITES:
        _KEPT.popitem(last=False)
    return got


#: clear canvases sprites are drawn on (one a clear colour), kept and grown as needed: a robot far down a big board
#: is drawn at its own coordinates or in their power-of-two range, and filling a new canvas that big each time
#: would cost more than the drawing
_CANVASES: dict[RGB, Image.Image] = {}


def _canvas(clear: RGB, width: int, height: int) -> Image.Image:
    got = _CANVASES.get(clear)
    if got is None or got.width < width or got.height < height:
        size = (max(width, got.width if got else 0), max(height, got.height if got else 0))
        got = _CANVASES[clear] = Image.new("RGB", size, clear)
    return got


def _drawn(look: Look, x: float, y: float, sx: int, sy: int, m: int) -> Sprite | None:
    width, height = sx + m + 2, sy + m + 2
    box = (max(0, sx - m), max(0, sy - m), width, height)
    parts = []
    for clear in (_CLEAR_A, _CLEAR_B):
        canvas = _canvas(clear, width, height)
        draw_robot(ImageDraw.Draw(canvas), x, y, *look)
        parts.append(canvas.crop(box))
        canvas.paste(clear, box)  # clear again for the next
    a, b = parts
    differ = ImageChops.difference(a, b)
    # a pixel the robot set is the same on both; one it left is each clear colour; anything else (a third
    # difference) is something blended into what was under it: such a look is drawn each time
    if not set(c for _, c in differ.getcolors(2) or [(0, None)]) <= {(0, 0, 0), _UNTOUCHED}:
        return None
    mask = differ.convert("L").point(_Lookup(_ZERO))
    inside = mask.getbbox()
    if inside is None:
        return None
    if (inside[0] == 0 and box[0]) or (inside[1] == 0 and box[1]) or inside[2] == a.width or inside[3] == a.height:
        return None  # (never: the margin holds every look) not all of it on the sprite
    return Sprite(a.crop(inside), mask.crop(inside), box[0] + inside[0] - sx, box[1] + inside[1] - sy)


#: how the two clear colours differ (what a pixel no drawing touched shows)
_UNTOUCHED = tuple(abs(p - q) for p, q in zip(_CLEAR_A, _CLEAR_B, strict=True))
_ZERO = [255] + [0] * 255


class _Lookup(Image.ImagePointHandler):
    """A table of whole numbers for ``Image.point``, applied without Pillow checking its 256 entries each time."""

    def __init__(self, table: list[int]) -> None:
        self.table = table

    def point(self, im: Image.Image) -> Image.Image:
        return im._new(im.im.point(self.table, None))


def paste_robot(img: Image.Image, d: ImageDraw.ImageDraw, cx: float, cy: float, look: Look) -> None:
    """A robot drawn on the RGB image ``img`` (``d`` draws on it) as :func:`.robots.draw_robot` draws it."""
    got = sprite(cx, cy, look) if ENABLED else None
    if got is None:
        draw_robot(d, cx, cy, *look)
        return
    img.paste(got.image, got.at(cx, cy), got.mask)


def paste_sprites(img: Image.Image, palette: Image.Image, placed: Sequence[tuple[float, float, Sprite]]) -> None:
    """Sprites pasted on a palette image (mapped to ``palette``, the one ``img`` is mapped to), in order."""
    for cx, cy, got in placed:
        img.paste(got.in_palette(palette), got.at(cx, cy), got.mask)
