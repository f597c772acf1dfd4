"""Robots pasted as kept sprites (issue 46) set the same pixels, to the same colours, as drawing them: one robot
anywhere on a floor, at any fraction of a pixel, turned part way, with its letters, options and status chips;
and whole turns on several courses, every stage picture, every frame of the GIF and every byte of the PNGs and
the GIF the same as with every robot drawn."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageDraw

from benchmarks.bench_render import play
from referee.boards import load_board
from referee.engine import Robot
from referee.engine.geometry import N
from referee.render import make_players, sprites
from referee.render.frames import floor, moments, turn_frames
from referee.render.gif import gif_bytes
from referee.render.layout import CELL
from referee.render.motion import animated, animation
from referee.render.png import png_bytes
from referee.render.robots import draw_robot

NAMES = ["Twonky", "Hammer", "Zoom", "Spin", "Squash", "Trundle"]
COLOURS = [p.rgb for p in make_players(NAMES)]
#: where robots stand in the GIF: a square's centre plus a share of a square (halves, thirds, quarters)
SHARES = sorted({k / n for n in (2, 3, 4) for k in range(n)})


def _floor() -> Image.Image:
    return floor(load_board("sprint"), CELL, 4).image


@settings(max_examples=300, deadline=None)
@given(x=st.integers(-20, 430), y=st.integers(-20, 640),
       fx=st.one_of(st.sampled_from([s * CELL % 1 for s in SHARES] + [0.5]), st.floats(0, 0.999)),
       fy=st.one_of(st.sampled_from([s * CELL % 1 for s in SHARES] + [0.5]), st.floats(0, 0.999)),
       size=st.sampled_from([CELL, CELL * 0.7, 24.0, 40.0]), colour=st.sampled_from(COLOURS),
       facing=st.one_of(st.builds(lambda f, turns, t: f + turns * t, st.integers(0, 3), st.integers(-2, 2),
                                  st.sampled_from([0, 1 / 4, 1 / 3, 1 / 2, 2 / 3, 3 / 4])), st.floats(-4, 4)),
       virtual=st.booleans(), label=st.sampled_from(["", "T", "Zo", "H"]), options=st.booleans(),
       marks=st.sampled_from([(), ("Z",), ("P", "V"), ("A", "B", "C")]))
def test_a_pasted_robot_is_the_drawn_robot_pixel_for_pixel(x, y, fx, fy, size, colour, facing, virtual, label,
                                                           options, marks):
    cx, cy = x + fx, y + fy
    look = (size, colour, facing, virtual, label, options, marks)
    drawn, pasted = _floor().copy(), _floor().copy()
    draw_robot(ImageDraw.Draw(drawn), cx, cy, *look)
    sprites.paste_robot(pasted, ImageDraw.Draw(pasted), cx, cy, look)
    assert pasted.tobytes() == drawn.tobytes()


def test_a_kept_sprite_sets_only_the_robots_pixels():
    got = sprites.sprite(100.5, 200 + 1 / 3, (CELL, COLOURS[0], 1, False, "T", True, ("Z",)))
    assert got is not None
    counts = got.mask.histogram()
    assert counts[0] + counts[255] == got.mask.width * got.mask.height  # each pixel set or left alone
    assert counts[0] and counts[255]  # its corners are the floor's


def _turns(course: str, robots: int, turns: int, seed: int):
    board = load_board(course)
    starts = [board.starts[n] for n in sorted(board.starts)]
    names = NAMES[:robots]
    bots = [Robot(n, starts[i % len(starts)], N, archive=starts[i % len(starts)]) for i, n in enumerate(names)]
    rng = random.Random(seed)
    out = []
    for turn in range(1, turns + 1):
        result, _ = play(board, bots, f"{course}:{seed}:{turn}", rng)   # random programs from each hand
        out.append((board, result, names, turn))
        bots = result.robots
    return out


def _pictures(board, result, names, turn):
    players = make_players(names)
    at = moments(board, result.phases_run, result.end_of_turn, result.events, None)
    frames = turn_frames(board, result.frames, players, result.phases_run, result.end_of_turn, title=f"T turn {turn}",
                         events=result.events, moments=at)
    images, durations = animation(board, frames, result.frames, result.events, players, f"T turn {turn}", CELL, at)
    # as a turn's mail makes it: the frames one at a time, drawn in two images by turns
    streamed = gif_bytes(*animated(board, frames, result.frames, result.events, players, f"T turn {turn}", CELL,
                                   at, reuse=True))
    return ([f.image.tobytes() for f in frames], [png_bytes(f.image) for f in frames],
            [i.tobytes() for i in images], gif_bytes(images, durations), streamed)


@pytest.mark.parametrize(("course", "robots", "seed"), [("sprint", 4, 1), ("sprint", 4, 2), ("factory", 6, 3),
                                                        ("graveyard-shift", 4, 4), ("meltdown", 5, 5),
                                                        ("tick-tock", 4, 6), ("grand-prix", 8, 7)])
def test_whole_turns_with_sprites_are_the_turns_drawn(course, robots, seed, monkeypatch):
    for board, result, names, turn in _turns(course, robots, 4, seed):
        monkeypatch.setattr(sprites, "ENABLED", False)
        drawn = _pictures(board, result, names, turn)
        monkeypatch.setattr(sprites, "ENABLED", True)
        pasted = _pictures(board, result, names, turn)
        assert pasted[0] == drawn[0], f"{course} turn {turn}: a stage picture differs"
        assert pasted[1] == drawn[1], f"{course} turn {turn}: a PNG differs"
        assert pasted[2] == drawn[2], f"{course} turn {turn}: a frame of the GIF differs"
        assert pasted[3] == drawn[3], f"{course} turn {turn}: the GIF differs"
        assert pasted[4] == drawn[4] == drawn[3], f"{course} turn {turn}: the GIF written as its frames come differs"
