"""The turn's pictures are written cheaply but show exactly what was drawn: every PNG decodes to the stage
picture's pixels and palette, the GIF to its frames and their times, and an in-between frame mapped only
where the robots are is the whole frame mapped to the palette.

Rulings cited (docs/rulings.md): 19.t1, 19.t2, 19.t3, 19.t4.
"""

from __future__ import annotations

import io

import pytest
from PIL import Image

from referee.engine import Robot, build_board, parse_card, resolve_turn
from referee.engine.geometry import E, N
from referee.render import frame, gif_bytes, make_players, png_bytes, render_turn
from referee.render.frames import draw_caption, floor, quantized
from referee.render.marks import events_of
from referee.render.motion import animation, beats, tween_images, tween_places
from referee.render.robots import draw_robots, draw_strip, robot_places

BOARD = {"width": 8, "height": 5, "elements": [{"kind": "express", "at": "r5c1-r5c8", "dir": "E"},
                                               {"kind": "gear", "at": "r3c5", "turn": "left"},
                                               {"kind": "pit", "at": "r1c8"}]}
PROGRAMS = {"Twonky": ["FWD3 790", "FWD1 490"], "Hammer": ["RT90 80", "UTRN 10"], "Zoom": ["RT90 100", "LF90 70"],
            "Spin": ["FWD2 670", "FWD1 500"]}


@pytest.fixture(scope="module")
def played():
    board = build_board(BOARD)
    robots = [Robot("Twonky", (2, 1), E), Robot("Hammer", (2, 4), N), Robot("Zoom", (5, 1), N),
              Robot("Spin", (1, 6), E, virtual=True)]
    programs = {name: [parse_card(c) for c in cards] for name, cards in PROGRAMS.items()}
    result = resolve_turn(board, robots, programs)
    players = make_players(list(PROGRAMS))
    return board, result, players, render_turn(board, result, players, "RR-9", 3)


def _decoded_gif(data: bytes) -> list[tuple[bytes, int]]:
    gif = Image.open(io.BytesIO(data))
    out = []
    for i in range(gif.n_frames):
        gif.seek(i)
        out.append((gif.convert("RGB").tobytes(), gif.info["duration"]))
    return out


def test_every_stage_png_decodes_to_the_stage_picture_and_its_palette(played):
    _, _, _, rendered = played
    for fr, pic in zip(rendered.frames, rendered.pictures, strict=True):
        img = Image.open(io.BytesIO(pic.data))
        img.load()
        assert (img.mode, img.size) == ("P", fr.image.size)
        assert img.tobytes() == fr.image.tobytes()
        assert img.getpalette() == fr.image.getpalette()


def test_a_picture_that_is_not_a_palette_image_is_still_a_png_of_its_pixels():
    img = Image.new("RGB", (30, 20), (10, 200, 30))
    img.putpixel((3, 4), (255, 0, 0))
    back = Image.open(io.BytesIO(png_bytes(img)))
    assert back.convert("RGB").tobytes() == img.tobytes()


def test_the_gif_shows_every_frame_of_the_animation_for_its_time(played):
    board, result, players, rendered = played
    images, durations = animation(board, rendered.frames, result.frames, result.events, players, "RR-9 turn 3")
    got = _decoded_gif(rendered.gif.data)
    assert [d for _, d in got] == durations
    assert [px for px, _ in got] == [img.convert("RGB").tobytes() for img in images]


def test_a_frame_the_same_as_the_one_before_adds_its_time_to_it(played):
    _, _, _, rendered = played
    a, b = rendered.frames[0].image, rendered.frames[1].image
    got = _decoded_gif(gif_bytes([a, a, b, b, b], [100, 200, 300, 400, 500]))
    assert [d for _, d in got] == [300, 1200]
    assert [px for px, _ in got] == [a.convert("RGB").tobytes(), b.convert("RGB").tobytes()]


def test_frames_of_different_palettes_still_make_a_gif_of_them():
    red = Image.new("RGB", (16, 16), (200, 0, 0)).quantize(colors=4)
    blue = Image.new("RGB", (16, 16), (0, 0, 200)).quantize(colors=8)
    got = _decoded_gif(gif_bytes([red, blue], [500, 700]))
    assert [d for _, d in got] == [500, 700]
    assert got[1][0] == blue.convert("RGB").tobytes()


def test_an_in_between_frame_is_the_whole_frame_mapped_to_the_palette(played):
    board, result, players, _ = played
    fl = floor(board, players=len(players))
    lay = fl.layout
    caption = "RR-9 turn 3: stage 1"
    order = {p.robot: i for i, p in enumerate(players)}
    for cards in beats(result.frames[0], events_of(result.events, 1)):
        start, end = robot_places(lay, cards.before, order), robot_places(lay, cards.after, order)
        tweens = tween_images(board, cards, players, 3, board.flag_count, caption, strip=result.frames[0])
        for i, tween in enumerate(tweens, 1):
            # drawn the plain way: a copy of the floor, the robots part way, the strip, the caption, all mapped
            drawn, places, facing = tween_places(lay, cards, i / 4, start, end)
            img = fl.image.copy()
            draw_robots(img, lay, drawn, players, places, facing)
            draw_strip(img, lay, result.frames[0], players, board.flag_count)
            draw_caption(img, lay, caption)
            plain = quantized(board, img, players)
            assert tween.getpalette() == plain.getpalette()
            assert tween.tobytes() == plain.tobytes()


def test_drawing_the_in_between_frames_leaves_the_kept_floor_as_it_was(played):
    board, result, players, _ = played
    fl = floor(board, players=len(players))
    before = fl.image.tobytes()
    animation(board, [f for f in render_turn(board, result, players, "RR-9", 4).frames], result.frames,
              result.events, players, "RR-9 turn 4")
    assert fl.image.tobytes() == before


def test_a_stage_picture_is_the_whole_picture_mapped_to_the_palette(played):
    board, result, players, rendered = played
    for fr, robots in zip(rendered.frames, result.frames, strict=True):
        plain = frame(board, robots, players, fr.caption, marks=fr.marks)
        assert fr.image.getpalette() == plain.getpalette()
        assert fr.image.tobytes() == plain.tobytes(), fr.key


def test_frames_given_one_at_a_time_make_the_same_gif_as_a_list(played):
    board, result, players, rendered = played
    images, durations = animation(board, rendered.frames, result.frames, result.events, players, "RR-9 turn 3")
    assert gif_bytes(iter(images), durations) == gif_bytes(images, durations) == rendered.gif.data


def test_frames_given_one_at_a_time_must_share_the_first_ones_palette():
    red = Image.new("RGB", (16, 16), (200, 0, 0)).quantize(colors=4)
    blue = Image.new("RGB", (16, 16), (0, 0, 200)).quantize(colors=8)
    with pytest.raises(ValueError, match="palette"):
        gif_bytes(iter([red, blue]), [500, 700])
