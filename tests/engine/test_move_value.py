"""Move hooks see the move under way (``movement.move_of``): why the robot moves, the squares it plans to
cross, and ``stop()`` to end it where it stands, without any change to the core; notes kept for one
register phase are emptied as the next starts."""

from __future__ import annotations

from referee.engine import build_board, resolve_turn
from referee.engine.cards import parse_card
from referee.engine.hooks import on
from referee.engine.kinds import Kind, register
from referee.engine.movement import move_of
from referee.engine.state import Robot
from referee.engine.timing import ENTER


def _board(*elements: dict[str, object]):
    return build_board({"width": 6, "height": 6, "elements": list(elements)})


def test_glue_stops_a_robot_that_enters_it_under_its_own_card(scratch):
    """Glue (an invented kind): the card's move ends on it; no obstruction is logged, the rest is lost."""
    seen = []

    def stick(ctx, robot, came_from, d):
        move = move_of(ctx, robot)
        seen.append((move.cause, str(move.card), move.path, move.moved))
        move.stop()

    scratch.append("glue")
    register(Kind(name="glue", rank=900, hooks=(on("move.pits", stick, ENTER),)))
    result = resolve_turn(_board({"kind": "glue", "at": "r3c3"}), [Robot("Twonky", (1, 3), 0)],
                          {"Twonky": [parse_card("FWD3 800")]}, phases=1)
    assert result.robots[0].pos == (3, 3)
    assert seen == [("card", "FWD3 800", [(2, 3), (3, 3), (4, 3)], 1)]  # moved: squares done before this one
    assert "blocked" not in [e.kind for e in result.events]


def test_a_pushed_robot_and_a_carried_robot_make_one_square_moves_of_their_own_cause(scratch):
    seen = []

    def note(ctx, robot, came_from, d):
        move = move_of(ctx, robot)
        seen.append((robot.name, move.cause, move.path, move.card))
        move.stop()  # a one-square move: nothing more to end

    scratch.append("glue")
    register(Kind(name="glue", rank=900, hooks=(on("move.pits", note, ENTER),)))
    board = _board({"kind": "glue", "at": "r3c3"}, {"kind": "glue", "at": "r5c5"},
                   {"kind": "belt", "at": "r4c5", "dir": "N"})
    robots = [Robot("Twonky", (1, 3), 0), Robot("Hulk", (2, 3), 0), Robot("Zoom", (4, 5), 0)]
    result = resolve_turn(board, robots, {"Twonky": [parse_card("FWD1 500")]}, phases=1)
    by_name = {r.name: r for r in result.robots}
    assert by_name["Hulk"].pos == (3, 3) and by_name["Twonky"].pos == (2, 3)
    assert ("Hulk", "push", [(3, 3)], None) in seen
    assert ("Zoom", "conveyed", [(5, 5)], None) in seen and by_name["Zoom"].pos == (5, 5)


def test_no_move_is_under_way_between_cards(scratch):
    seen = []

    def look(ctx, phase):
        seen.append(dict(ctx.moving))

    scratch.append("watcher")
    register(Kind(name="watcher", rank=900, steps={"board.gears": look}))
    resolve_turn(_board({"kind": "watcher", "at": "r6c6"}), [Robot("Twonky", (1, 3), 0)],
                 {"Twonky": [parse_card("FWD1 500"), parse_card("RT90 80")]}, phases=2)
    assert seen == [{}, {}]


def test_phase_notes_are_emptied_as_each_phase_starts_and_turn_notes_stay(scratch):
    seen = []

    def look(ctx, phase):
        seen.append((phase, dict(ctx.phase_notes), ctx.notes.get("watcher", 0)))
        ctx.phase_notes["watcher"] = phase
        ctx.notes["watcher"] = ctx.notes.get("watcher", 0) + 1

    scratch.append("watcher")
    register(Kind(name="watcher", rank=900, steps={"board.gears": look}))
    resolve_turn(_board({"kind": "watcher", "at": "r6c6"}), [Robot("Twonky", (1, 3), 0)], {}, phases=3)
    assert seen == [(1, {}, 0), (2, {}, 1), (3, {}, 2)]
