"""The course map kept on disk: a process that reads it plans exactly as one that measured the course."""

from __future__ import annotations

import copy
import json
import random

import pytest

from referee.autopilot import course as course_module
from referee.autopilot import plan_program
from referee.autopilot.course import CourseMap, course_key
from referee.boards import board_spec
from referee.boards.coursemaps import cached_course_map
from referee.engine import DECK, Robot, Rules, build_board
from referee.engine.geometry import squares_of


def fresh_board(name: str = "sprint", spec: dict | None = None):
    """The course built anew, as a new process builds it (nothing in its in-memory cache)."""
    return build_board(spec if spec is not None else board_spec(name), name)


def test_a_map_read_from_disk_is_the_map_measured(tmp_path):
    measured = CourseMap(fresh_board())
    written = cached_course_map(fresh_board(), tmp_path)  # measured, then written
    files = list(tmp_path.glob("*.json"))
    assert len(files) == 1
    board = fresh_board()
    read = cached_course_map(board, tmp_path)  # read back
    assert read.moves == measured.moves == written.moves
    for flag in board.flags:
        assert read.distances(flag) == measured.distances(flag)
    assert cached_course_map(board, tmp_path) is read  # and kept for the process


def test_the_autopilot_plans_the_same_program_with_a_map_from_disk(tmp_path):
    cached_course_map(fresh_board(), tmp_path)
    rng = random.Random(17)
    for _ in range(6):
        measured_board, read_board = fresh_board(), fresh_board()
        squares = [sq for sq in squares_of(measured_board.width, measured_board.height) if measured_board.on_board(sq)]
        hand = rng.sample(list(DECK), 9)
        me = Robot("Twonky", rng.choice(squares), rng.randrange(4))
        other = Robot("Hammer", measured_board.starts[2], 0)
        a = plan_program(measured_board, [me, other], "Twonky", hand, seed="s", course=CourseMap(measured_board))
        b = plan_program(read_board, [me, other], "Twonky", hand, seed="s",
                         course=cached_course_map(read_board, tmp_path))
        assert (a.program, a.score, a.predicted) == (b.program, b.score, b.predicted)


def test_a_changed_course_or_rules_version_is_measured_again(tmp_path):
    spec = copy.deepcopy(board_spec("sprint"))
    key = course_key(fresh_board(spec=spec))
    spec["elements"] = [e for e in spec["elements"] if e.get("kind") != "pit"] or spec["elements"][1:]
    changed = fresh_board(spec=spec)
    assert course_key(changed) != key
    assert course_key(fresh_board(), Rules().for_version(2)) != key   # a game played under rules version 2
    assert course_key(fresh_board(), Rules(edge="fence")) != key   # a house rule moving robots otherwise


def test_a_game_under_an_older_rules_version_plans_on_moves_measured_under_it(tmp_path):
    board = fresh_board()
    older = Rules().for_version(2)
    kept = cached_course_map(board, tmp_path, rules=older)
    assert kept.rules == older and kept is not cached_course_map(board, tmp_path)   # one map per rules
    assert cached_course_map(fresh_board(), tmp_path, rules=older).moves == CourseMap(fresh_board(), rules=older).moves
    assert len(list(tmp_path.glob("*.json"))) == 2


@pytest.mark.parametrize("damage", ["truncated", "other board"])
def test_a_damaged_file_is_measured_again_and_replaced(tmp_path, damage):
    board = fresh_board()
    cached_course_map(board, tmp_path)
    path = next(tmp_path.glob("*.json"))
    data = json.loads(path.read_text())
    if damage == "truncated":
        path.write_text(path.read_text()[:1000])
    else:
        data["moves"] = data["moves"][:-4]  # a square missing: not this board's moves
        path.write_text(json.dumps(data))
    again = cached_course_map(fresh_board(), tmp_path)
    assert again.moves == CourseMap(fresh_board()).moves
    assert json.loads(path.read_text())["moves"] == json.loads(json.dumps(
        course_module.moves_to_data(again.moves)))
