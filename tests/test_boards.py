"""The shipped boards and courses: they load, they use the classic element set, their races can be run,
and a board turned onto a course keeps its walls where they belong."""

from __future__ import annotations

import os
import subprocess
import sys
from collections import deque
from pathlib import Path

import pytest

from referee.boards import load_board, read_toml
from referee.engine import Board
from referee.engine.geometry import DC, DR, E, N, S, Square, W, parse_run
from tests.servers.processes import patience

ROOT = Path(__file__).resolve().parent.parent
BOARDS = ROOT / "boards"
FILES = {p.stem: read_toml(p) for p in sorted(BOARDS.glob("*.toml"))}
COURSES = sorted(n for n, d in FILES.items() if d.get("kind") == "course")
BOARD_NAMES = sorted(n for n, d in FILES.items() if d.get("kind", "board") == "board")
PLAYERS = {"sprint": [2, 4], "circuit": [4, 6], "grand-prix": [6, 8]}


@pytest.fixture(autouse=True)
def shipped_boards_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """A board directory in the environment must not shadow the shipped files under test."""
    monkeypatch.delenv("REFEREE_BOARDS", raising=False)


def ahead(sq: Square, d: int) -> Square:
    return (sq[0] + DR[d], sq[1] + DC[d])


def reachable(board: Board, start: Square) -> set[Square]:
    """Squares a robot can walk to from start one square at a time, round walls, pits and void."""
    pits = board.layer("pit")
    seen = {start}
    todo = deque([start])
    while todo:
        sq = todo.popleft()
        for d in (N, E, S, W):
            nxt = ahead(sq, d)
            if board.wall(sq, d) or nxt in seen or not board.on_board(nxt) or nxt in pits:
                continue
            seen.add(nxt)
            todo.append(nxt)
    return seen


def turned(sq: Square, side: int, width: int, height: int, turn: int) -> tuple[Square, int]:
    """Where a square and a side of a width x height board end up after `turn` clockwise quarter turns."""
    r, c = sq
    spot = {0: (r, c), 1: (width - c + 1, r), 2: (height - r + 1, width - c + 1), 3: (c, height - r + 1)}[turn]
    return spot, (side + turn) % 4


def file_elements(name: str, kind: str) -> list[tuple[Square, dict]]:
    """(square, element) for every square an element of `kind` covers in a board file, runs expanded."""
    return [(sq, el) for el in FILES[name].get("elements", []) if el["kind"] == kind for sq in parse_run(el["at"])]


# -- every file ----------------------------------------------------------------------------------------


def test_the_promised_boards_dock_and_courses_are_shipped():
    square_boards = [n for n in BOARD_NAMES if (FILES[n]["width"], FILES[n]["height"]) == (12, 12)]
    assert len(square_boards) >= 4
    assert FILES["dock"]["kind"] == "dock"
    assert set(PLAYERS) <= set(COURSES)


@pytest.mark.parametrize("name", sorted(FILES))
def test_every_shipped_file_loads(name):
    board = load_board(name)
    assert board.width >= 1 and board.height >= 1
    assert board.name, "every shipped file names itself"


# -- the boards --------------------------------------------------------------------------------------


def test_the_boards_together_use_the_whole_classic_element_set():
    boards = [load_board(n) for n in BOARD_NAMES]

    def values(kind: str, field: str) -> set:
        return {el[field] for b in boards for els in b.layer(kind).values() for el in els}

    for kind in ("pit", "belt", "express", "pusher", "gear", "crusher", "laser", "repair"):
        assert any(b.has(kind) for b in boards), kind
    assert any(b.blocked for b in boards)
    assert {(1, 3, 5), (2, 4)} <= values("pusher", "phases")
    assert values("gear", "turn") == {"left", "right"}
    assert values("laser", "count") == {1, 2, 3}
    assert values("repair", "wrenches") == {1, 2}
    assert any(b.has("crusher") and set(b.layer("crusher")) & set(b.layer("belt")) for b in boards)


@pytest.mark.parametrize("kind", ["belt", "express"])
def test_some_belt_of_each_speed_feeds_a_belt_at_right_angles(kind):
    """A corner: a robot carried off this belt lands on a belt running across its way and turns."""
    corners = []
    for name in BOARD_NAMES:
        board = load_board(name)
        lanes = {sq: els[0]["dir"] for k in ("belt", "express") for sq, els in board.layer(k).items()}
        for sq, els in board.layer(kind).items():
            d = els[0]["dir"]
            nxt = ahead(sq, d)
            if nxt in lanes and lanes[nxt] % 2 != d % 2 and not board.wall(sq, d):
                corners.append((name, sq))
    assert corners


@pytest.mark.parametrize("name", BOARD_NAMES)
def test_belts_lead_somewhere_on_their_own_board(name):
    """No belt carries a robot straight off its board, into a pit or against a wall."""
    board = load_board(name)
    pits = board.layer("pit")
    for kind in ("belt", "express"):
        for sq, els in board.layer(kind).items():
            d = els[0]["dir"]
            assert not board.wall(sq, d), f"{name}: belt r{sq[0]}c{sq[1]} runs into a wall"
            assert board.on_board(ahead(sq, d)), f"{name}: belt r{sq[0]}c{sq[1]} runs off the board"
            assert ahead(sq, d) not in pits, f"{name}: belt r{sq[0]}c{sq[1]} runs into a pit"


@pytest.mark.parametrize("name", [*BOARD_NAMES, "dock"])
def test_lasers_and_pushers_are_mounted_on_a_wall_behind_them(name):
    board = load_board(name)
    for kind in ("laser", "pusher"):
        for sq, els in board.layer(kind).items():
            for el in els:
                assert board.wall(sq, (el["dir"] + 2) % 4), f"{name}: {kind} r{sq[0]}c{sq[1]} has no wall behind"


@pytest.mark.parametrize("name", BOARD_NAMES)
def test_pits_leave_room_to_race(name):
    """Few pits, and every square that is not a pit can be walked to from every other."""
    board = load_board(name)
    floor = {(r, c) for r in range(1, board.height + 1) for c in range(1, board.width + 1)} - set(board.layer("pit"))
    assert len(board.layer("pit")) <= 8
    assert reachable(board, min(floor)) == floor


def test_the_dock_has_start_squares_one_to_eight():
    dock = load_board("dock")
    assert (dock.width, dock.height) == (12, 4)
    assert sorted(dock.starts) == list(range(1, 9))
    assert dock.blocked


# -- the courses -------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", COURSES)
def test_a_course_starts_every_player_it_is_meant_for(name):
    course = load_board(name)
    low, high = course.spec["players"]
    if name in PLAYERS:
        assert [low, high] == PLAYERS[name]
    assert 1 <= low <= high
    assert set(range(1, high + 1)) <= set(course.starts)


@pytest.mark.parametrize("name", COURSES)
def test_flags_are_numbered_one_to_n_on_plain_floor(name):
    course = load_board(name)
    assert 2 <= course.flag_count <= 4
    assert sorted(course.flags) == list(range(1, course.flag_count + 1))
    for number, sq in course.flags.items():
        under = {el.kind for el in course.elements_at(sq)} - {"flag"}
        assert not under & {"pit", "belt", "express", "crusher", "gear"}, f"flag {number} on {under}"


@pytest.mark.parametrize("name", COURSES)
def test_every_flag_can_be_walked_to_from_every_start_and_every_flag(name):
    course = load_board(name)
    flags = set(course.flags.values())
    for origin in [*course.starts.values(), *course.flags.values()]:
        missing = flags - reachable(course, origin)
        assert not missing, f"{name}: from r{origin[0]}c{origin[1]} no way to {sorted(missing)}"


def test_at_least_one_course_turns_a_board():
    assert any(place.get("turn", 0) for name in COURSES for place in FILES[name]["place"])


@pytest.mark.parametrize("name", COURSES)
def test_every_wall_of_a_placed_board_lands_on_its_turned_side(name):
    course = load_board(name)
    for place in FILES[name]["place"]:
        board = FILES[place["board"]]
        turn = place.get("turn", 0)
        corner = parse_run(place.get("at", "r1c1"))[0]
        walls = file_elements(place["board"], "wall")
        assert walls
        for sq, el in walls:
            for side_name in el["sides"]:
                side = "NESW".index(side_name)
                (r, c), course_side = turned(sq, side, board["width"], board["height"], turn)
                at = (r + corner[0] - 1, c + corner[1] - 1)
                assert course.wall(at, course_side), f"{place['board']} r{sq[0]}c{sq[1]} {side_name}"
                assert course.wall(ahead(at, course_side), (course_side + 2) % 4)


def test_crossfire_turned_half_round_fires_its_double_laser_north_from_its_wall():
    """Circuit puts Crossfire at r17c1 turned twice: its r12c6 laser (firing S, wall N) lands on r17c7."""
    course = load_board("circuit")
    laser = course.one("laser", (17, 7))
    assert laser is not None and laser["dir"] == N and laser["count"] == 2
    assert course.wall((17, 7), S) and course.wall((16, 7), N)
    assert not course.wall((17, 7), N)


def test_switchyard_turned_a_quarter_left_keeps_its_repair_pocket():
    """Grand Prix turns Switchyard three quarters clockwise at r5c13: r6c8 with walls N and E lands on
    r12c19 with walls W and N, and its main line, once running E, now runs N into the pocket."""
    course = load_board("grand-prix")
    assert course.one("repair", (12, 19)) is not None
    assert course.wall((12, 19), W) and course.wall((12, 19), N)
    assert not course.wall((12, 19), E) and not course.wall((12, 19), S)
    belt = course.one("belt", (11, 19))
    assert belt is not None and belt["dir"] == N


def test_squares_no_board_covers_are_off_the_course():
    course = load_board("grand-prix")
    assert (course.width, course.height) == (24, 28)
    assert not course.on_board((1, 1)) and not course.on_board((4, 24))
    assert course.on_board((1, 7)) and course.on_board((5, 1))


# -- the command line --------------------------------------------------------------------------------


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "REFEREE_BOARDS"}
    return subprocess.run(
        [sys.executable, "-m", "referee.cli", *args], capture_output=True, text=True, cwd=ROOT, env=env,
        timeout=patience(60),
    )


@pytest.mark.parametrize("name", COURSES)
def test_board_show_draws_every_course(name):
    course = load_board(name)
    proc = run_cli("board", "show", name)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].startswith(f"{course.name}: {course.width} x {course.height}")
    rows = [line for line in lines if line[:3].strip().isdigit() and line.rstrip().endswith(line[:3].strip())]
    assert len(rows) == course.height
    for number in course.flags:
        assert f"F{number}" in proc.stdout


def test_board_check_passes_every_shipped_file():
    proc = run_cli("board", "check")
    assert proc.returncode == 0, proc.stdout
    assert {line.split()[1] for line in proc.stdout.splitlines() if line.startswith("ok")} == set(FILES)
