"""Pictures that cannot lie, each kept as a golden PNG (looked at when written): a laser beam runs from the square
its robot fired from along its row or column to where the beam stopped, never across the grid between where the
robots end up; robots sharing a square are drawn apart, each whole and readable; the GIF plays the cards one after
another in priority order, a pushed robot moving only when its pusher reaches it; a ghost is drawn as a ghost, on
its own square, and the key says so."""

from __future__ import annotations

import math
from itertools import combinations

import pytest
from PIL import Image

from referee.boards import load_board
from referee.engine import Event, Robot, build_board, parse_card, resolve_turn
from referee.engine.geometry import E, N, W
from referee.engine.state import BoardState
from referee.render import make_players, render_turn
from referee.render.beats import ghost_key
from referee.render.board_image import CELL, Layout
from referee.render.colours import BEAM
from referee.render.frames import frame_rgb, moments
from referee.render.ghosts import ghost_of, ghost_tables, ghosts_in
from referee.render.legend import legend_entries
from referee.render.marks import Shot, events_of, stage_marks
from referee.render.motion import animation, beats, tween_places
from referee.render.path import path_image, path_marks
from referee.render.robots import robot_places

from .golden import check_golden_png

NAMES = ["Twonky", "Hammer", "Zoom", "Spin", "Squash", "Trundle", "Hulk", "Bishop"]

# -- beams --------------------------------------------------------------------------------------------------
#: Twonky backs up to r2c1 and shoots Hammer at r2c6 along row 2 in register 1; then Hammer drives on to r2c8
#: and Twonky turns and drives north to r4c1: their last squares are on no common row or column
BEAM_BOARD = {"width": 8, "height": 5, "elements": []}
BEAM_ROBOTS = [Robot("Twonky", (2, 2), E), Robot("Hammer", (2, 6), N)]
BEAM_PROGRAMS = {"Twonky": ["RVS1 430", "LF90 90", "FWD2 670"], "Hammer": ["RT90 80", "FWD2 680"]}


def _beam_preview():
    board = build_board(BEAM_BOARD)
    programs = {name: [parse_card(c) for c in cards] for name, cards in BEAM_PROGRAMS.items()}
    result = resolve_turn(board, BEAM_ROBOTS, programs)
    marks = path_marks(BEAM_ROBOTS, result.events, "Hammer")
    img = path_image(board, result.robots, make_players(["Twonky", "Hammer"]), marks).convert("RGB")
    return board, result, marks, img


def test_the_shot_runs_from_the_square_fired_from_to_the_robot_hit():
    _, result, marks, _ = _beam_preview()
    assert {r.name: r.pos for r in result.robots} == {"Twonky": (4, 1), "Hammer": (2, 8)}
    assert marks.shots == [Shot("Twonky", "Hammer", (2, 1), (2, 6))]


def test_the_preview_draws_the_beam_along_the_row_it_was_fired_on():
    board, _, _, img = _beam_preview()
    lay = Layout(board.width, board.height, CELL)
    top = lay.origin((2, 1))[1]
    left, right = lay.origin((2, 1))[0], lay.origin((2, 6))[0] + CELL
    core = [(x, y) for x in range(img.width) for y in range(img.height) if img.getpixel((x, y)) == BEAM]
    assert core, "the beam is drawn"
    assert all(top <= y < top + CELL and left <= x < right for x, y in core), "only on row 2, from c1 to c6"
    assert {x for x, _ in core} >= set(range(left + CELL, right - CELL))   # the whole way, no gap
    check_golden_png("beam-preview.png", img)


# -- robots sharing a square --------------------------------------------------------------------------------
def _crowd(count: int, dock: tuple[int, int], board) -> list[Robot]:
    return [Robot(n, dock, N, virtual=True) for n in NAMES[:count]]


def test_up_to_eight_robots_on_one_square_are_drawn_apart():
    board = load_board("factory")
    lay = Layout(board.width, board.height, CELL)
    for count in range(2, 9):
        places = robot_places(lay, _crowd(count, board.starts[1], board), {})
        assert len(places) == count
        for a, b in combinations(places.values(), 2):
            assert math.dist((a.cx, a.cy), (b.cx, b.cy)) >= a.size, (count, a, b)   # none covers another
        assert all(p.size >= CELL * 0.6 for p in places.values())   # each big enough for its letters


def test_a_crowd_on_a_dock_at_the_board_edge_stays_on_the_board():
    board = build_board({"width": 6, "height": 4, "elements": [{"kind": "start", "at": "r1c1", "number": 1}]})
    lay = Layout(board.width, board.height, CELL)
    places = robot_places(lay, _crowd(8, (1, 1), board), {})
    x0, y0, x1, y1 = lay.left, lay.top, lay.left + 6 * CELL, lay.top + 4 * CELL
    assert all(x0 <= p.cx - p.size / 2 and p.cx + p.size / 2 <= x1 and y0 <= p.cy - p.size / 2
               and p.cy + p.size / 2 <= y1 for p in places.values())


def test_eight_robots_starting_on_one_dock_of_the_factory_match_their_golden_picture():
    board = load_board("factory")
    dock = board.starts[1]
    img = frame_rgb(board, _crowd(8, dock, board), make_players(NAMES), strip=False)
    lay = Layout(board.width, board.height, CELL)
    x, y = lay.origin(dock)
    check_golden_png("crowded-dock.png", img.crop((x - 3 * CELL, y - 3 * CELL, x + 4 * CELL, y + 2 * CELL)))


# -- the GIF: one card after another, a push when the pusher arrives ---------------------------------------
#: Twonky's FWD3 (priority 790) from r2c1 reaches Hammer at r2c3 after its first square and pushes it to r2c5;
#: Hammer's own card, RT90 80, plays after it
PUSH_BOARD = {"width": 6, "height": 3, "elements": []}
PUSH_ROBOTS = [Robot("Twonky", (2, 1), E), Robot("Hammer", (2, 3), N)]
PUSH_PROGRAMS = {"Twonky": ["FWD3 790"], "Hammer": ["RT90 80"]}


def _pushed_turn():
    board = build_board(PUSH_BOARD)
    programs = {name: [parse_card(c) for c in cards] for name, cards in PUSH_PROGRAMS.items()}
    result = resolve_turn(board, PUSH_ROBOTS, programs)
    players = make_players(["Twonky", "Hammer"])
    return board, result, players, render_turn(board, result, players, "RR-9", 1)


def test_the_pusher_moves_alone_until_it_reaches_the_robot_it_pushes():
    board, result, _, _ = _pushed_turn()
    lay = Layout(board.width, board.height, CELL)
    push, turn = beats(result.frames[0], events_of(result.events, 1))
    assert (push.card, turn.card, turn.turns) == ("Twonky", "Hammer", {"Hammer": 1})
    start = robot_places(lay, push.before, {})
    end = robot_places(lay, push.after, {})
    c = {col: lay.centre((2, col))[0] for col in range(1, 7)}
    # Twonky touches Hammer a third of the way (from r2c2), then they move on together
    for t, twonky, hammer in ((0.25, 1.75, 3), (1 / 3, 2, 3), (0.5, 2.5, 3.5), (0.75, 3.25, 4.25), (1, 4, 5)):
        _, places, _ = tween_places(lay, push, t, start, end)
        x = {name: pl.cx for name, pl in places.items()}
        assert x["Twonky"] == pytest.approx(c[1] + (twonky - 1) * CELL), t
        assert x["Hammer"] == pytest.approx(c[1] + (hammer - 1) * CELL), t


def test_the_gif_of_a_push_matches_its_golden_frames():
    board, result, players, rendered = _pushed_turn()
    images, _ = animation(board, rendered.frames, result.frames, result.events, players, "RR-9 turn 1")
    stage1 = next(i for i, img in enumerate(images) if img is rendered.frames[1].image)
    shown = [img.convert("RGB") for img in images[1:stage1 + 1]]   # the in-between frames, then the picture
    assert len(shown) == 3 + 1 + 1   # Twonky's three squares, Hammer's turn, the stage picture
    lay = Layout(board.width, board.height, CELL)
    box = (0, lay.top - 4, shown[0].width, lay.top + board.height * CELL + 4)
    w, h = box[2] - box[0], box[3] - box[1]
    sheet = Image.new("RGB", (w, h * len(shown)), "white")
    for k, img in enumerate(shown):
        sheet.paste(img.crop(box), (0, k * h))
    check_golden_png("gif-push-frames.png", sheet)


# -- ghosts -------------------------------------------------------------------------------------------------
#: Twonky's ghost hovers at r4c4 facing north as the turn begins, Twonky itself at r2c2; the ghost's FWD2 700
#: takes it to r6c4 in register 1, its RT90 200 turns it east in register 2, where its glare hits Hammer (r6c7)
GHOST_BOARD = {"width": 8, "height": 6, "elements": [{"kind": "grave", "at": "r1c8"}, {"kind": "grave", "at": "r6c1"}]}
GHOST_STATE = {"ghost": {"Twonky": {"at": "r4c4", "facing": "N", "cards": ["FWD2 700", "RT90 200"]}}}
GHOST_PROGRAMS = {"Twonky": ["UTRN 10", "FWD1 500"], "Hammer": ["UTRN 20", "LF90 70"]}


def _haunted_turn():
    board = build_board(GHOST_BOARD)
    robots = [Robot("Twonky", (2, 2), E), Robot("Hammer", (6, 7), W)]
    programs = {name: [parse_card(c) for c in cards] for name, cards in GHOST_PROGRAMS.items()}
    before = BoardState(GHOST_STATE)
    result = resolve_turn(board, robots, programs, board_state=before, phases=2)
    players = make_players(["Twonky", "Hammer"])
    return board, result, players, render_turn(board, result, players, "RR-9", 1, board_before=before)


def test_a_ghost_is_drawn_on_its_own_square_in_its_robots_colour_at_each_picture():
    board, _, players, rendered = _haunted_turn()
    lay = Layout(board.width, board.height, CELL)
    red = players[0].rgb
    pale = tuple(round(c + (255 - c) * 0.72) for c in red)

    def inked(img, square, colour):
        x, y = lay.origin(square)
        part = img.convert("RGB").crop((x + 2, y + 2, x + CELL - 2, y + CELL - 2))
        return sum(n for n, c in part.getcolors(CELL * CELL)
                   if max(abs(a - b) for a, b in zip(c, colour, strict=True)) <= 16)

    start, stage1, _ = (f.image for f in rendered.frames)
    assert inked(start, (4, 4), red) > CELL and inked(start, (4, 4), pale) > CELL
    assert inked(stage1, (6, 4), red) > CELL and inked(stage1, (4, 4), red) == 0   # it drifted to r6c4
    assert inked(start, (2, 2), pale) == 0   # Twonky itself is no ghost


def test_the_ghost_drifts_in_the_gif_when_its_card_plays_and_the_key_has_it():
    board, result, players, rendered = _haunted_turn()
    at = moments(board, 2, False, result.events, BoardState(GHOST_STATE))
    assert at is not None
    ghost = ghost_key("Twonky")
    # the ghost's FWD2 700 plays before Hammer's UTRN 20 and Twonky's UTRN 10
    got = beats(result.frames[0], events_of(result.events, 1), ghosts_in(at[0][1]))
    assert [b.card for b in got] == [ghost, "Hammer", "Twonky"]
    assert got[0].paths == {ghost: [(4, 4), (5, 4), (6, 4)]}
    images, _ = animation(board, rendered.frames, result.frames, result.events, players, "RR-9 turn 1", moments=at)
    lay = Layout(board.width, board.height, CELL)
    x, y = lay.origin((5, 4))
    between = images[2].convert("RGB").crop((x, y, x + CELL, y + CELL))   # two thirds of the way: over r5c4
    assert players[0].rgb in {c for _, c in between.getcolors(CELL * CELL)}
    assert "ghost (its robot's colour)" in legend_entries(board)
    assert not any(entry.startswith("ghost") for entry in legend_entries(build_board(BEAM_BOARD)))


def test_a_ghosts_glare_is_drawn_from_the_ghost_along_its_row_to_the_robot_hit():
    _, result, _, rendered = _haunted_turn()
    assert [(e.phase, e.robot, (e.data or {}).get("cause")) for e in result.events if e.kind == "damage"] == [
        (2, "Hammer", "ghost")]
    assert rendered.frames[2].marks.glares == [Shot("Twonky", "Hammer", (6, 4), (6, 7))]
    assert rendered.frames[1].marks.glares == []
    # a hit logged as the ghost's names its square: the glare is drawn from there
    named = Event(2, "lasers", "Hammer", "damage", {"amount": 1}, {"cause": "ghost", "by": "Twonky's ghost r6c2"})
    assert stage_marks([Robot("Hammer", (6, 7), W)], [named]).glares == [Shot("Twonky", "Hammer", (6, 2), (6, 7))]
    touched = Event(1, "robots", "Hammer", "damage", {"amount": 1}, {"cause": "ghost", "by": "Twonky's ghost r6c7"})
    assert stage_marks([Robot("Hammer", (6, 7), W)], [touched]).glares == []   # it hovered onto Hammer's square


def test_a_ghost_matches_its_golden_pictures():
    board, _, _, rendered = _haunted_turn()
    lay = Layout(board.width, board.height, CELL)
    box = (0, 0, lay.size[0], lay.top + board.height * CELL + lay.band[0])
    shown = [f.image.convert("RGB").crop(box) for f in rendered.frames]
    sheet = Image.new("RGB", (box[2] * len(shown), box[3]), "white")
    for k, img in enumerate(shown):
        sheet.paste(img, (k * box[2], 0))
    check_golden_png("ghost.png", sheet)


def test_a_ghosts_events_are_read_logged_under_its_robot_or_as_the_ghosts_own():
    old = Event(1, "robots", "Twonky", "ghost moves", {"to": "r6c4"}, {"card": "FWD2 700"})
    new = Event(1, "robots", None, "ghost moves", {"to": "r6c4"}, {"card": "FWD2 700", "ghost": "Twonky"})
    start = BoardState(GHOST_STATE)
    for ev in (old, new):
        assert ghost_of(ev) == "Twonky"
        [table] = ghost_tables(start, [ev], [1])
        assert table["Twonky"]["at"] == "r6c4"
        [beat] = beats([Robot("Twonky", (2, 2), E)], [ev], ghosts_in(start))
        assert beat.paths == {ghost_key("Twonky"): [(4, 4), (5, 4), (6, 4)]}
    assert ghost_of(Event(1, "robots", "Twonky", "move", {"to": "r2c3"})) is None
