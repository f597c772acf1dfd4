"""Fonts for the pictures: DejaVu from Debian's ``fonts-dejavu-core`` (which ``.ci/setup`` installs), else the
font built into Pillow. Nothing else on the machine is looked at, so a picture never depends on it."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from PIL import ImageFont

DEJAVU_DIR = Path("/usr/share/fonts/truetype/dejavu")
REGULAR = "DejaVuSans.ttf"
BOLD = "DejaVuSans-Bold.ttf"

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> Font:
    path = DEJAVU_DIR / (BOLD if bold else REGULAR)
    if path.is_file():
        return ImageFont.truetype(str(path), size)
    return ImageFont.load_default(size=size)
