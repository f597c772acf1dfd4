"""Pictures that cannot lie, each kept as a golden PNG (looked at when written): a laser beam runs from the square
its robot fired from along its row or column to where the beam stopped, never across the grid between where the
robots end up; robots sharing a square are drawn apart, each whole and readable."""

from __future__ import annotations

import math
from itertools import combinations

from referee.boards import load_board
from referee.engine import Robot, build_board, parse_card, resolve_turn
from referee.engine.geometry import E, N
from referee.render import make_players
from referee.render.board_image import CELL, Layout
from referee.render.colours import BEAM
from referee.render.frames import frame_rgb
from referee.render.marks import Shot
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
