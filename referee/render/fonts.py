"""Fonts for the pictures: DejaVu (Debian's ``fonts-dejavu-core``, which ``.ci/setup`` installs, or the
same font where Fedora, Alpine, Arch or macOS put it), else the font built into Pillow. No other font of the
machine is looked at, so a picture never depends on it."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

REGULAR = "DejaVuSans.ttf"
BOLD = "DejaVuSans-Bold.ttf"
#: where systems put DejaVu Sans: Debian and Ubuntu, Fedora, Alpine, Arch and openSUSE, macOS
DEJAVU_DIRS = (Path("/usr/share/fonts/truetype/dejavu"), Path("/usr/share/fonts/dejavu-sans-fonts"),
               Path("/usr/share/fonts/dejavu"), Path("/usr/share/fonts/TTF"), Path("/usr/share/fonts/truetype"),
               Path("/opt/homebrew/share/fonts"), Path("/Library/Fonts"))
#: the first of them holding DejaVu Sans (Debian's when none does)
DEJAVU_DIR = next((d for d in DEJAVU_DIRS if (d / REGULAR).is_file()), DEJAVU_DIRS[0])

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> Font:
    path = DEJAVU_DIR / (BOLD if bold else REGULAR)
    if path.is_file():
        return ImageFont.truetype(str(path), size)
    return ImageFont.load_default(size=size)


@lru_cache(maxsize=4096)
def _sprite(text: str, size: int, bold: bool, fill: tuple[int, int, int], anchor: str, stroke: int,
            stroke_fill: tuple[int, int, int] | None) -> tuple[Image.Image, int, int]:
    f = font(size, bold)
    if not stroke and text and isinstance(f, ImageFont.FreeTypeFont):
        # what ImageDraw.text does for it, without its second layout of the text (getbbox) and its overhead:
        # the glyphs' mask, and the colour filled through it on a clear image (the same pixels)
        core, (left, top) = f.getmask2(text, "L", anchor=anchor, start=(0.0, 0.0))
        mask = Image.Image()._new(core)  # Pillow's own wrapping of the mask it returns
        img = Image.new("RGBA", (max(1, mask.width), max(1, mask.height)), (0, 0, 0, 0))
        if mask.width and mask.height:
            img.paste((*fill, 255), (0, 0, mask.width, mask.height), mask)
        return img, left, top
    left, top, right, bottom = (int(v) for v in f.getbbox(text, anchor=anchor, stroke_width=stroke))
    img = Image.new("RGBA", (max(1, right - left), max(1, bottom - top)), (0, 0, 0, 0))
    ImageDraw.Draw(img).text((-left, -top), text, font=f, fill=fill, anchor=anchor, stroke_width=stroke,
                             stroke_fill=stroke_fill)
    return img, left, top


def stamp(d: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int, bold: bool,
          fill: tuple[int, int, int], anchor: str = "mm", stroke: int = 0,
          stroke_fill: tuple[int, int, int] | None = None) -> None:
    """Text drawn from a kept sprite: what is written on every frame (robots' letters, the status strip)
    costs a paste, not a font rendering, after its first time."""
    image: Image.Image | None = getattr(d, "_image", None)  # the image this ImageDraw draws on (Pillow's own)
    if image is None or image.mode != "RGB":
        d.text(xy, text, font=font(size, bold), fill=fill, anchor=anchor, stroke_width=stroke, stroke_fill=stroke_fill)
        return
    sprite, left, top = _sprite(text, size, bold, fill, anchor, stroke, stroke_fill)
    image.paste(sprite, (round(xy[0]) + left, round(xy[1]) + top), sprite)


def stamp_box(xy: tuple[float, float], text: str, size: int, bold: bool, fill: tuple[int, int, int],
              anchor: str = "mm", stroke: int = 0, stroke_fill: tuple[int, int, int] | None = None
              ) -> tuple[int, int, int, int]:
    """The box :func:`stamp` pastes its sprite into (on an RGB image)."""
    sprite, left, top = _sprite(text, size, bold, fill, anchor, stroke, stroke_fill)
    x, y = round(xy[0]) + left, round(xy[1]) + top
    return (x, y, x + sprite.width, y + sprite.height)
