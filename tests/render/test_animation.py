"""The turn's GIF shows the robots moving: in-between frames for each step of a stage that moved or turned a
robot (the cards, then belts...), built around the stage pictures already drawn."""

from __future__ import annotations

import io
import itertools
import random

import pytest
from PIL import Image

from referee.boards import load_board
from referee.engine import Robot, build_board, parse_card, resolve_turn
from referee.engine.cards import BY_PRIORITY
from referee.engine.geometry import E, N
from referee.render import make_players, render_turn
from referee.render.board_image import CELL, Layout
from referee.render.marks import events_of
from referee.render.motion import STAGE_MS, TWEEN_MS, animation, beats, tween_images

RGB = tuple[int, int, int]
BOARD = {"width": 8, "height": 4, "elements": [{"kind": "express", "at": "r4c1-r4c8", "dir": "E"},
                                               {"kind": "pit", "at": "r1c8"}]}
PROGRAMS = {"Twonky": ["FWD3 790", "FWD1 490"], "Hammer": ["RT90 80", "UTRN 10"], "Zoom": ["RT90 100", "LF90 70"],
            "Spin": ["FWD2 670", "FWD1 500"]}
NAMES = ["Twonky", "Hammer", "Zoom", "Spin"]


@pytest.fixture(scope="module")
def played():
    board = build_board(BOARD)
    robots = [Robot("Twonky", (2, 1), E), Robot("Hammer", (2, 4), N), Robot("Zoom", (4, 1), N),
              Robot("Spin", (1, 6), E)]
    programs = {name: [parse_card(c) for c in cards] for name, cards in PROGRAMS.items()}
    return board, resolve_turn(board, robots, programs)


def _near(a: RGB, b: RGB, tol: int = 12) -> bool:
    return all(abs(p - q) <= tol for p, q in zip(a, b, strict=True))


def _has(img: Image.Image, board, sq, colour: RGB) -> int:
    lay = Layout(board.width, board.height, CELL)
    x, y = lay.origin(sq)
    rgb = img.convert("RGB").crop((x + 1, y + 1, x + CELL, y + CELL))
    return sum(n for n, c in rgb.getcolors(CELL * CELL) or [] if _near(c, colour))


def test_a_stage_is_cut_into_beats_one_per_card_in_priority_order_then_one_per_element_step(played):
    _, result = played
    got = beats(result.frames[0], events_of(result.events, 1))
    # FWD3 790 (Twonky), FWD2 670 (Spin), RT90 100 (Zoom), RT90 80 (Hammer); then the express belt, the belts
    assert [(b.step, b.card) for b in got] == [("robots", "Twonky"), ("robots", "Spin"), ("robots", "Zoom"),
                                              ("robots", "Hammer"), ("express", None), ("belts", None)]
    twonky, spin, zoom, hammer = got[:4]
    assert twonky.paths == {"Twonky": [(2, 1), (2, 2), (2, 3), (2, 4)], "Hammer": [(2, 4), (2, 5)]}
    assert spin.paths == {"Spin": [(1, 6), (1, 7), (1, 8)]}
    assert next(r for r in spin.after if r.name == "Spin").pos is None  # fell in the pit during its card
    assert (zoom.turns, hammer.turns) == ({"Zoom": 1}, {"Hammer": 1})
    assert got[4].paths == {"Zoom": [(4, 1), (4, 2)]}


def test_a_pushed_robot_moves_only_when_its_pusher_reaches_it(played):
    _, result = played
    [twonky, *_] = beats(result.frames[0], events_of(result.events, 1))
    # Twonky's FWD3 takes the whole beat, a square a third; Hammer, on Twonky's third square, waits two thirds
    assert twonky.times["Twonky"] == [0, 1 / 3, 2 / 3, 1]
    assert twonky.times["Hammer"] == [2 / 3, 1]


def test_a_left_turn_and_a_u_turn_turn_the_way_their_cards_say(played):
    _, result = played
    turns = {name: n for beat in beats(result.frames[1], events_of(result.events, 2)) for name, n in beat.turns.items()}
    assert turns["Zoom"] == -1
    assert turns["Hammer"] == 2


def test_an_in_between_frame_shows_a_robot_on_its_way(played):
    board, result = played
    players = make_players(NAMES)
    twonky = players[0].rgb
    [cards, *_] = beats(result.frames[0], events_of(result.events, 1))
    [half] = tween_images(board, cards, players, 1, board.flag_count, "")
    # FWD3 from r2c1 to r2c4: half way it is between r2c2 and r2c3, where it stands at no stage picture
    assert _has(half, board, (2, 2), twonky) + _has(half, board, (2, 3), twonky) > CELL * CELL // 5
    rendered = render_turn(board, result, players, "RR-9", 1)
    for fr in rendered.frames[:2]:
        assert _has(fr.image, board, (2, 2), twonky) + _has(fr.image, board, (2, 3), twonky) < CELL * CELL // 5


def test_the_gif_is_the_stage_pictures_with_in_between_frames_before_each(played):
    board, result = played
    players = make_players(NAMES)
    rendered = render_turn(board, result, players, "RR-9", 1)
    images, durations = animation(board, rendered.frames, result.frames, result.events, players, "RR-9 turn 1")
    stills = [i for i, img in enumerate(images) if any(img is f.image for f in rendered.frames)]
    assert len(stills) == len(rendered.frames) and stills[0] == 0
    assert len(images) > len(rendered.frames)
    assert all(durations[i] >= STAGE_MS for i in stills)
    assert all(durations[i] == TWEEN_MS for i in range(len(images)) if i not in stills)
    gif = Image.open(io.BytesIO(rendered.gif.data))
    assert gif.n_frames == len(images)
    for i in (stills[1], stills[-1]):
        gif.seek(i)
        assert gif.info["duration"] == durations[i]
        assert gif.convert("RGB").tobytes() == images[i].convert("RGB").tobytes()


def test_a_robot_pushed_by_a_pushed_robot_moves_when_the_push_reaches_it():
    # Twonky's FWD3 from r2c1 pushes Hammer (r2c2) into Zoom (r2c4): Hammer at once, Zoom from the second square
    board = build_board({"width": 8, "height": 3})
    robots = [Robot("Twonky", (2, 1), E), Robot("Hammer", (2, 2), N), Robot("Zoom", (2, 4), N)]
    result = resolve_turn(board, robots, {"Twonky": [parse_card("FWD3 800")]}, phases=1)
    [push] = beats(robots, events_of(result.events, 1))
    assert push.card == "Twonky"
    assert push.paths == {"Twonky": [(2, 1), (2, 2), (2, 3), (2, 4)], "Hammer": [(2, 2), (2, 3), (2, 4), (2, 5)],
                          "Zoom": [(2, 4), (2, 5), (2, 6)]}
    assert push.times == {"Twonky": [0, 1 / 3, 2 / 3, 1], "Hammer": [0, 1 / 3, 2 / 3, 1], "Zoom": [1 / 3, 2 / 3, 1]}


@pytest.mark.parametrize("seed", [3, 5, 11])
def test_the_beats_of_a_busy_turn_end_where_the_stage_picture_has_the_robots(seed):
    """Eight robots with random programs on the factory course: in every stage, each beat's timings run forward
    within the beat, and after the last beat every robot stands where the stage's picture has it."""
    board = load_board("factory")
    names = ["Twonky", "Hammer", "Zoom", "Spin", "Squash", "Trundle", "Hulk", "Bishop"]
    robots = [Robot(n, board.starts[i + 1], N) for i, n in enumerate(names)]
    deck = list(BY_PRIORITY.values())
    random.Random(seed).shuffle(deck)
    result = resolve_turn(board, robots, {r.name: deck[i * 5:(i + 1) * 5] for i, r in enumerate(robots)},
                          seed=seed)
    for phase in range(1, result.phases_run + 1):
        got = beats(result.frames[phase - 1], events_of(result.events, phase))
        for beat in got:
            for name, times in beat.times.items():
                assert len(times) == len(beat.paths[name])
                assert all(0 <= a <= b <= 1 for a, b in itertools.pairwise(times)), (phase, name, times)
        if got:
            assert {r.name: r.pos for r in got[-1].after} == {r.name: r.pos for r in result.frames[phase]}
