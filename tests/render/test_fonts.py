"""Text on the pictures comes from kept sprites: a sprite is exactly what Pillow's ImageDraw.text draws."""

from __future__ import annotations

import pytest
from PIL import Image, ImageDraw

from referee.render import fonts


def _drawn_by_pillow(text: str, size: int, bold: bool, fill: tuple[int, int, int], anchor: str
                     ) -> tuple[Image.Image, int, int]:
    f = fonts.font(size, bold)
    left, top, right, bottom = (int(v) for v in f.getbbox(text, anchor=anchor))
    img = Image.new("RGBA", (max(1, right - left), max(1, bottom - top)), (0, 0, 0, 0))
    ImageDraw.Draw(img).text((-left, -top), text, font=f, fill=fill, anchor=anchor)
    return img, left, top


@pytest.mark.parametrize("text", ["RR-7 turn 5: after stage 2", "Wüste 3 turn 17: start of turn", "-2", "+1",
                                  "7 HP  \u2691 1/3  \u2665 2", "g/j Tq", "   "])
@pytest.mark.parametrize(("size", "bold", "fill", "anchor"), [(13, True, (24, 24, 24), "lm"),
                                                              (11, False, (24, 24, 24), "lm"),
                                                              (12, True, (255, 255, 255), "mm"),
                                                              (9, True, (200, 16, 16), "mm")])
def test_a_caption_sprite_is_what_imagedraw_text_draws(text, size, bold, fill, anchor):
    sprite, left, top = fonts._sprite(text, size, bold, fill, anchor, 0, None)
    pillow, p_left, p_top = _drawn_by_pillow(text, size, bold, fill, anchor)
    assert (left, top) == (p_left, p_top)
    assert sprite.size == pillow.size
    assert sprite.tobytes() == pillow.tobytes()
