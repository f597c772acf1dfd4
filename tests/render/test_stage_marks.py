"""A stage picture shows what happened in the stage: each robot's path in its colour (solid for its own card,
dashed when something else moved it), laser hits between robots, the HP lost, a wreck where a robot died;
and under the board every robot's HP, flags and lives."""

from __future__ import annotations

import pytest
from PIL import Image

from referee.engine import Robot, TurnResult, build_board, parse_card, resolve_turn
from referee.engine.events import read_event
from referee.engine.geometry import E, N, Square
from referee.render import make_players, render_turn
from referee.render.board_image import (
    CELL,
    DAMAGE,
    HEAL,
    HIT,
    INK,
    OPTION,
    WRECK,
    Layout,
)
from referee.render.frames import floor, frame
from referee.render.marks import Badge, Segment, Shot, Wreck, events_of, stage_marks
from referee.render.motion import beats
from referee.render.robots import robot_places, status_text

RGB = tuple[int, int, int]

#: Twonky plays FWD3 along row 2 and pushes Hammer; Zoom rides the express belt on row 4 and turns; Spin
#: drives into the pit at r1c8.
BOARD = {"width": 8, "height": 4, "elements": [{"kind": "express", "at": "r4c1-r4c8", "dir": "E"},
                                               {"kind": "pit", "at": "r1c8"}]}
PROGRAMS = {"Twonky": ["FWD3 790"], "Hammer": ["RT90 80"], "Zoom": ["RT90 100"], "Spin": ["FWD2 670"]}


@pytest.fixture(scope="module")
def played() -> tuple[TurnResult, object]:
    board = build_board(BOARD)
    robots = [Robot("Twonky", (2, 1), E), Robot("Hammer", (2, 4), N), Robot("Zoom", (4, 1), N),
              Robot("Spin", (1, 6), E)]
    programs = {name: [parse_card(c) for c in cards] for name, cards in PROGRAMS.items()}
    return resolve_turn(board, robots, programs), board


def _marks(result: TurnResult, stage: int = 1):
    return stage_marks(result.frames[stage - 1], events_of(result.events, stage))


def _pixels(img: Image.Image, sq: Square, board) -> list[RGB]:
    lay = Layout(board.width, board.height, CELL)
    x, y = lay.origin(sq)
    rgb = img.convert("RGB")
    return [rgb.getpixel((i, j)) for j in range(y + 1, y + CELL) for i in range(x + 1, x + CELL)]


def _near(a: RGB, b: RGB, tol: int = 12) -> bool:
    """Colours as drawn, give or take the mapping of each picture to its palette."""
    return all(abs(p - q) <= tol for p, q in zip(a, b, strict=True))


def _count(pixels: list[RGB], colour: RGB) -> int:
    return sum(1 for px in pixels if _near(px, colour))


def _longest_run(img: Image.Image, sq: Square, board, colour: RGB) -> int:
    """The longest unbroken row of ``colour`` across a square (a solid line crosses it whole)."""
    lay = Layout(board.width, board.height, CELL)
    x, y = lay.origin(sq)
    rgb = img.convert("RGB")
    best = 0
    for j in range(y + 1, y + CELL):
        run = 0
        for i in range(x, x + CELL + 1):
            run = run + 1 if _near(rgb.getpixel((i, j)), colour) else 0
            best = max(best, run)
    return best


# -- the drawing list ------------------------------------------------------------------------------------
def test_a_card_draws_a_solid_path_and_the_robot_it_pushes_a_dashed_one(played):
    result, _ = played
    marks = _marks(result)
    assert Segment("Twonky", (2, 1), (2, 4), True, "move") in marks.segments
    assert Segment("Hammer", (2, 4), (2, 5), False, "pushed", "Twonky") in marks.segments


def test_a_belt_ride_is_dashed_square_by_square(played):
    result, _ = played
    zoom = [s for s in _marks(result).segments if s.robot == "Zoom"]
    assert [(s.start, s.end, s.own) for s in zoom] == [((4, 1), (4, 2), False), ((4, 2), (4, 3), False)]


def test_a_laser_hit_between_robots_is_a_shot_and_a_miss_is_not(played):
    result, _ = played
    marks = _marks(result)
    assert marks.shots == [Shot("Twonky", "Hammer", (2, 4), (2, 5))]
    assert Badge("Hammer", (2, 5), 1) in marks.badges
    assert not [b for b in marks.badges if b.robot == "Twonky"]


def test_a_robot_falling_in_a_pit_leaves_a_wreck_there(played):
    result, _ = played
    assert _marks(result).wrecks == [Wreck("Spin", (1, 8), "pit")]
    assert _marks(result, 2).wrecks == []


def test_repairs_show_as_a_green_badge():
    board = build_board({"width": 3, "height": 3, "elements": [{"kind": "repair", "at": "r2c2"}]})
    robots = [Robot("Twonky", (2, 2), N, damage=3)]
    result = resolve_turn(board, robots, {"Twonky": [parse_card("RT90 80")]})
    end = stage_marks(result.frames[-2], events_of(result.events, "end"))
    assert end.badges == [Badge("Twonky", (2, 2), -1)]
    img = frame(board, result.frames[-1], make_players(["Twonky"]), marks=end)
    assert _count(_pixels(img, (2, 2), board), HEAL) > 20


# -- on the picture ---------------------------------------------------------------------------------------
def test_the_paths_are_drawn_in_the_robots_colours_solid_and_dashed(played):
    result, board = played
    players = make_players(["Twonky", "Hammer", "Zoom", "Spin"])
    colour = {p.robot: p.rgb for p in players}
    img = frame(board, result.frames[1], players, marks=_marks(result))
    plain = frame(board, result.frames[1], players)
    # Twonky passed r2c2 and r2c3: a solid line across both; nothing there without the marks
    for sq in ((2, 2), (2, 3)):
        assert _longest_run(img, sq, board, colour["Twonky"]) >= CELL - 2
        assert _count(_pixels(plain, sq, board), colour["Twonky"]) == 0
    # Zoom was carried through r4c2: dashes, never a line across the square
    assert 4 <= _longest_run(img, (4, 2), board, colour["Zoom"]) <= CELL // 2


def test_a_hit_is_a_beam_with_a_burst_on_the_target_and_a_red_badge(played):
    result, board = played
    players = make_players(["Twonky", "Hammer", "Zoom", "Spin"])
    img = frame(board, result.frames[1], players, marks=_marks(result))
    target = _pixels(img, (2, 5), board)
    assert _count(target, HIT) > 10
    assert _count(target, DAMAGE) > 20
    zoom = _pixels(img, (4, 3), board)  # Zoom, unhurt
    assert _count(zoom, HIT) == _count(zoom, DAMAGE) == 0


def test_the_wreck_is_drawn_where_the_robot_fell_in_its_colour_darkened_and_crossed_out(played):
    result, board = played
    players = make_players(["Twonky", "Hammer", "Zoom", "Spin"])
    img = frame(board, result.frames[1], players, marks=_marks(result))
    spin = next(p.rgb for p in players if p.robot == "Spin")
    wreck = tuple(round(c + (w - c) * 0.45) for c, w in zip(spin, WRECK, strict=True))
    here = _pixels(img, (1, 8), board)
    assert _count(here, wreck) > 40
    assert _count(here, INK) > 20  # the cross, dark on the disc
    assert _count(_pixels(frame(board, result.frames[1], players), (1, 8), board), wreck) == 0


def test_the_pictures_of_a_turn_carry_their_stages_marks(played):
    result, board = played
    rendered = render_turn(board, result, make_players(["Twonky", "Hammer", "Zoom", "Spin"]), "RR-9", 1)
    assert [bool(f.marks) for f in rendered.frames][:2] == [False, True]
    assert rendered.frames[1].marks == _marks(result)


# -- robots: findable, facing, holding options ------------------------------------------------------------
NAMES = ["Twonky", "Hammer", "Zoom", "Spin", "Squash", "Trundle", "Hulk", "Bishop"]


@pytest.mark.parametrize("count", [2, 4, 8])
def test_virtual_robots_on_one_dock_fan_out_around_it_with_their_letters_and_the_dock_number_shows(count):
    board = build_board({"width": 5, "height": 4, "elements": [{"kind": "start", "at": "r2c3", "number": 1}]})
    names = NAMES[:count]
    players = make_players(names)
    robots = [Robot(n, (2, 3), N, virtual=True) for n in names]
    lay = floor(board, CELL, len(players)).layout
    places = robot_places(lay, robots, {n: i for i, n in enumerate(names)})
    centres = {(round(p.cx), round(p.cy)) for p in places.values()}
    assert len(centres) == count  # no two on top of each other
    cx, cy = lay.centre((2, 3))
    assert all(abs(p.cx - cx) + abs(p.cy - cy) > CELL * 0.3 for p in places.values())  # the middle stays free
    assert all(p.size >= 18 for p in places.values())  # big enough for their letters
    img = frame(board, robots, players).convert("RGB")
    with_dock = frame(board, [], players).convert("RGB")
    # the dock's number is still drawn in the middle of the square
    box = (int(cx - 4), int(cy - 6), int(cx + 4), int(cy + 6))
    assert img.crop(box).tobytes() == with_dock.crop(box).tobytes()


def test_a_robot_holding_option_cards_carries_a_gold_mark():
    board = build_board({"width": 3, "height": 3})
    players = make_players(["Twonky", "Hammer"])
    img = frame(board, [Robot("Twonky", (2, 1), N, options=["brakes"]), Robot("Hammer", (2, 3), N)], players)
    assert _count(_pixels(img, (2, 1), board), OPTION) > 8
    assert _count(_pixels(img, (2, 3), board), OPTION) == 0


# -- the status strip ---------------------------------------------------------------------------------------
def test_the_strip_under_the_board_gives_every_robots_hp_flags_and_lives(played):
    result, board = played
    robots = result.frames[1]
    hammer = next(r for r in robots if r.name == "Hammer")
    spin = next(r for r in robots if r.name == "Spin")
    assert status_text(hammer, 2) == f"{hammer.hp} HP  \u2691 0/2  \u2665 {hammer.lives}"
    assert status_text(spin, 2).startswith("destroyed")
    assert status_text(Robot("Zoom", None, N, lives=0), 2) == "out of the game"
    players = make_players(["Twonky", "Hammer", "Zoom", "Spin"])
    img = frame(board, robots, players).convert("RGB")
    board_bottom = Layout(board.width, board.height, CELL).size[1]
    strip = img.crop((0, board_bottom, img.width, img.height))
    assert strip.height > 4 * 16
    colours = [c for _, c in strip.getcolors(strip.width * strip.height) or []]
    assert all(any(_near(c, p.rgb) for c in colours) for p in players)
    assert any(_near(c, INK) for c in colours)  # the words


def test_a_stored_turn_read_back_from_its_words_draws_the_same_marks(played):
    result, _ = played
    stored = [read_event(e.to_dict()) for e in result.events]
    for stage in range(1, result.phases_run + 1):
        assert stage_marks(result.frames[stage - 1], events_of(stored, stage)) == _marks(result, stage)


def test_a_robot_pulled_by_a_magnet_is_drawn_moved_dashed_and_glides_in_the_gif():
    board = build_board({"width": 6, "height": 4, "elements": [{"kind": "magnet", "at": "r2c5"}]})
    robots = [Robot("Twonky", (2, 2), N)]
    result = resolve_turn(board, robots, {"Twonky": [parse_card("UTRN 10")]}, phases=1)
    pulled = [ev for ev in result.events if ev.kind == "pulled"]
    assert pulled, "the magnet pulls Twonky along row 2"
    marks = stage_marks(robots, events_of(result.events, 1))
    assert Segment("Twonky", (2, 2), (2, 3), False, "pulled") in marks.segments
    magnet = [b for b in beats(robots, events_of(result.events, 1)) if "Twonky" in b.paths]
    assert magnet and magnet[-1].card is None and magnet[-1].paths["Twonky"] == [(2, 2), (2, 3)]
