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

#: the two clear colours a sprite is drawn on (each differs from the other in every channel)
_CLEAR_A: RGB = (1, 2, 3)
_CLEAR_B: RGB = (254, 251, 250)
#: looks kept (each a few KB); the oldest first out
MAX_SPRITES = 4096
#: robots are drawn directly while False (what the sprites are compared with)
ENABLED = True

#: (size, colour, facing, virtual, label, options, marks)
Look = tuple[float, RGB, float, bool, str, bool, tuple[str, ...]]


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
    return math.ceil(size) + 6


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


def sprite(cx: float, cy: float, look: Look) -> Sprite | None:
    """The sprite of ``look`` for a robot centred on (cx, cy), drawn the first time (None: not kept, draw it)."""
    m = _margin(look[0])
    wx, wy = math.floor(cx), math.floor(cy)
    sx, sy = _spot(wx, m), _spot(wy, m)
    # the sprite serves every centre with the same fraction, drawn at the same spot for it
    key = (look, cx - wx, cy - wy, wx if sx == wx else (wx.bit_length(), wx % 2),
           wy if sy == wy else (wy.bit_length(), wy % 2))
    if key in _KEPT:
        _KEPT.move_to_end(key)
        return _KEPT[key]
    got = _drawn(look, sx + (cx - wx), sy + (cy - wy), sx, sy, m)
    _KEPT[key] = got
    if len(_KEPT) > MAX_SPRITES:
        _KEPT.popitem(last=False)
    return got


def _drawn(look: Look, x: float, y: float, sx: int, sy: int, m: int) -> Sprite | None:
    from .robots import draw_robot

    width, height = sx + m + 2, sy + m + 2
    drawn = []
    for clear in (_CLEAR_A, _CLEAR_B):
        img = Image.new("RGB", (width, height), clear)
        draw_robot(ImageDraw.Draw(img), x, y, *look)
        drawn.append(img)
    box = (max(0, sx - m), max(0, sy - m), width, height)
    a, b = (img.crop(box) for img in drawn)
    differ = _any_channel(ImageChops.difference(a, b))      # not the robot's (or blended)
    not_clear = _any_channel(ImageChops.difference(a, Image.new("RGB", a.size, _CLEAR_A)))
    if ImageChops.multiply(differ, not_clear).getbbox() is not None:
        return None  # a pixel blended into what was under it: drawn each time
    mask = differ.point(lambda v: 0 if v else 255)
    inside = mask.getbbox()
    if inside is None:
        return None
    if (inside[0] == 0 and box[0]) or (inside[1] == 0 and box[1]) or inside[2] == a.width or inside[3] == a.height:
        return None  # (never: the margin holds every look) not all of it on the sprite
    return Sprite(a.crop(inside), mask.crop(inside), box[0] + inside[0] - sx, box[1] + inside[1] - sy)


def _any_channel(diff: Image.Image) -> Image.Image:
    """An "L" image: 255 where any channel of ``diff`` is not 0, else 0."""
    r, g, b = diff.split()
    return ImageChops.lighter(ImageChops.lighter(r, g), b).point(lambda v: 255 if v else 0)


def paste_robot(img: Image.Image, d: ImageDraw.ImageDraw, cx: float, cy: float, look: Look) -> None:
    """A robot drawn on the RGB image ``img`` (``d`` draws on it) as :func:`.robots.draw_robot` draws it."""
    got = sprite(cx, cy, look) if ENABLED else None
    if got is None:
        from .robots import draw_robot

        draw_robot(d, cx, cy, *look)
        return
    img.paste(got.image, got.at(cx, cy), got.mask)


def paste_sprites(img: Image.Image, palette: Image.Image, placed: Sequence[tuple[float, float, Sprite]]) -> None:
    """Sprites pasted on a palette image (mapped to ``palette``, the one ``img`` is mapped to), in order."""
    for cx, cy, got in placed:
        img.paste(got.in_palette(palette), got.at(cx, cy), got.mask)
