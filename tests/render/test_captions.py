"""A picture's caption is written as the turn's title and the stage beside it: it reads and sits as the whole
text would, and the stage parts are the same sprites every turn.

Rulings cited (docs/rulings.md): 19.t5.
"""

from __future__ import annotations

from PIL import Image, ImageChops, ImageDraw

from referee.render import fonts
from referee.render.colours import INK, WHITE
from referee.render.frames import _caption_at, caption_box, draw_caption
from referee.render.layout import Layout


def _ink_box(img: Image.Image) -> tuple[int, int, int, int] | None:
    return ImageChops.difference(img, Image.new("RGB", img.size, WHITE)).getbbox()


def test_a_caption_in_two_parts_covers_what_the_whole_text_covers():
    lay = Layout(12, 16, 32, 0)
    for text in ("RR-7 turn 4: after stage 1", "Wüste 3 turn 17: stage 5", "Spiel: eins turn 2: end of turn"):
        parts = Image.new("RGB", lay.size, WHITE)
        draw_caption(parts, lay, text)
        whole = Image.new("RGB", lay.size, WHITE)
        xy, size = _caption_at(lay)
        ImageDraw.Draw(whole).text(xy, text, font=fonts.font(size, True), fill=INK, anchor="lm")
        got, want = _ink_box(parts), _ink_box(whole)
        assert got is not None and want is not None
        assert all(abs(a - b) <= 1 for a, b in zip(got, want, strict=True)), (text, got, want)
        box = caption_box(lay, text)
        assert box is not None
        assert box[0] <= got[0] and box[1] <= got[1] and box[2] >= got[2] and box[3] >= got[3]


def test_the_stage_part_of_a_caption_is_rendered_once_for_every_turn():
    lay = Layout(12, 16, 32, 0)
    img = Image.new("RGB", lay.size, WHITE)
    draw_caption(img, lay, "RR-7 turn 4: after stage 3")
    before = fonts._sprite.cache_info()
    draw_caption(img, lay, "RR-7 turn 5: after stage 3")
    after = fonts._sprite.cache_info()
    assert after.misses - before.misses == 1  # the new title; "after stage 3" is the kept sprite
    assert after.hits - before.hits == 1
