"""The PREVIEW picture: one robot's whole turn drawn at once, its own moves solid, what carried it dashed,
in its colour; the other robots only where they stand."""

from __future__ import annotations

from itertools import pairwise

from PIL import Image

from referee.engine import Robot, build_board, parse_card, resolve_turn
from referee.engine.geometry import E, N
from referee.render import make_players
from referee.render.board_image import CELL, Layout
from referee.render.marks import Segment
from referee.render.path import path_image, path_marks

#: Twonky drives east along row 2 onto a belt that carries it north; Hammer stands on row 4 and plays nothing
BOARD = {"width": 8, "height": 4, "elements": [{"kind": "belt", "at": "r2c5", "dir": "N"}]}
ROBOTS = [Robot("Twonky", (2, 1), E), Robot("Hammer", (4, 8), N)]
PROGRAM = ["FWD2 700", "FWD2 710", "LF90 130", None, None]


def preview():
    board = build_board(BOARD)
    program = [parse_card(c) if c else None for c in PROGRAM]
    result = resolve_turn(board, ROBOTS, {"Twonky": program})
    return board, result, path_marks(ROBOTS, result.events, "Twonky")


def test_the_path_runs_register_by_register_from_start_to_end():
    _, result, marks = preview()
    segments = marks.segments
    assert segments and all(s.robot == "Twonky" for s in segments)
    assert segments[0].start == (2, 1) and segments[-1].end == next(r.pos for r in result.robots
                                                                    if r.name == "Twonky")
    assert all(a.end == b.start for a, b in pairwise(segments))
    # its own cards move it along row 2, two squares a card; the belt at r2c5 carries it (dashed) to r3c5
    assert [(s.start, s.end) for s in segments if s.own] == [((2, 1), (2, 3)), ((2, 3), (2, 5))]
    assert Segment("Twonky", (2, 5), (3, 5), False, "conveyed") in segments


def test_the_picture_draws_the_path_in_the_robots_colour_and_nothing_of_the_others():
    board, result, marks = preview()
    players = make_players(["Twonky", "Hammer"])
    img = path_image(board, result.robots, players, marks).convert("RGB")
    lay = Layout(board.width, board.height, CELL)
    assert isinstance(img, Image.Image) and img.size == lay.size
    red, blue = players[0].rgb, players[1].rgb

    def inked(square, colour):
        cx, cy = lay.centre(square)
        r = CELL // 2 - 2
        return sum(img.getpixel((x, y)) == colour for x in range(int(cx) - r, int(cx) + r)
                   for y in range(int(cy) - r, int(cy) + r))

    for square in [(2, 1), (2, 2), (2, 3), (2, 4), (2, 5)]:   # the path, the robot standing at its end
        assert inked(square, red) >= CELL // 2, square
    assert inked((2, 6), red) == 0 and inked((3, 1), red) == 0   # nowhere else
    assert inked((4, 8), blue) > 0 and sum(inked((r, c), blue) for r in range(1, 5) for c in range(1, 8)) == 0
