"""The autopilot's planner: legal programs always, the best program found, and the distance map."""

from __future__ import annotations

from itertools import permutations

from referee.autopilot import course_map, plan_program, score_robot
from referee.engine import Card, Robot, parse_card, resolve_turn
from referee.engine.geometry import E, N, S
from referee.engine.programs import check_program
from tests.engine.scenarios import belt, engine_board, flag, pit, wall


def cards(*texts: str) -> list[Card]:
    return [parse_card(t) for t in texts]


HAND = cards("FWD1 490", "FWD2 670", "FWD3 790", "LF90 70", "RT90 80", "UTRN 10", "RVS1 430", "FWD1 500",
             "RT90 100")


def test_a_robot_in_the_open_drives_to_its_flag():
    board = engine_board([flag("r6c1", 1)])
    me = Robot("Twonky", (1, 1), N, archive=(1, 1))
    plan = plan_program(board, [me], "Twonky", HAND)
    assert plan.complete
    assert plan.predicted.pos == (6, 1) and plan.predicted.flags == 1  # five squares north: FWD3 + FWD2
    assert check_program("Twonky", HAND, {}, plan.program) == plan.program


def test_the_distance_counts_walls_and_pits_not_the_straight_line():
    # a wall south of the flag: from straight below, the robot must go round
    board = engine_board([flag("r5c5", 1), wall("r5c5", "S"), pit("r5c4"), pit("r5c6")], width=8, height=8)
    course = course_map(board)
    assert course.distance(1, (5, 5), N) == 0
    assert course.distance(1, (6, 5), S) == 1          # Move 1 south, onto the flag
    assert course.distance(1, (4, 5), N) > 1           # the wall: no way in from the south in one card
    assert course.distance(1, (4, 5), N) == course.distances(1)[(4, 5, N)]


def test_a_belt_carries_the_robot_for_free_in_the_distance():
    board = engine_board([flag("r1c8", 1), *(belt(f"r1c{c}", "E") for c in range(2, 8))], width=8, height=8)
    course = course_map(board)
    assert course.distance(1, (1, 4), E) == 1   # Move 3 to r1c7, and the belt carries it onto the flag
    assert course.distance(1, (2, 4), E) == 3   # beside it: Move 3, turn right, Move 1 (the belt ends it)


def test_the_robot_does_not_drive_into_a_pit_to_get_closer():
    board = engine_board([flag("r8c1", 1), pit("r2c1"), pit("r2c2")], width=8, height=8)
    me = Robot("Twonky", (1, 1), N, archive=(1, 1))
    plan = plan_program(board, [me], "Twonky", cards("FWD3 790", "FWD2 670", "RT90 80", "LF90 70", "FWD1 490"))
    assert not plan.score.lost and plan.predicted.lives == 3
    assert plan.program[0] == parse_card("RT90 80")  # round the pits first


def test_fused_registers_keep_their_cards():
    board = engine_board([flag("r8c8", 1)])
    locked = {4: parse_card("UTRN 20"), 5: parse_card("RVS1 440")}
    me = Robot("Twonky", (1, 1), E, damage=6, locked=dict(locked), archive=(1, 1))
    hand = HAND[:3]
    plan = plan_program(board, [me], "Twonky", hand, locked=locked)
    assert plan.program[3:] == [locked[4], locked[5]]
    assert check_program("Twonky", hand, locked, plan.program) == plan.program


def test_a_powered_down_robot_plays_only_its_fused_registers():
    board = engine_board([flag("r8c8", 1)])
    me = Robot("Twonky", (1, 1), E, powered_down=True, archive=(1, 1))
    plan = plan_program(board, [me], "Twonky", [])
    assert plan.program == [None] * 5


def test_a_short_hand_fills_what_it_can():
    board = engine_board([flag("r8c8", 1)])
    me = Robot("Twonky", (1, 1), E, archive=(1, 1))
    plan = plan_program(board, [me], "Twonky", cards("FWD1 490", "LF90 70"))
    assert sorted(c for c in plan.program if c is not None) == sorted(cards("FWD1 490", "LF90 70"))
    assert plan.program.count(None) == 3


def test_a_tiny_step_budget_still_gives_a_whole_legal_program():
    board = engine_board([flag("r8c8", 1)])
    me = Robot("Twonky", (1, 1), E, archive=(1, 1))
    plan = plan_program(board, [me], "Twonky", HAND, max_steps=1)
    assert not plan.complete
    assert check_program("Twonky", HAND, {}, plan.program) == plan.program


def test_the_search_finds_the_best_of_every_ordering():
    board = engine_board([flag("r4c6", 1), wall("r3c4", "E"), pit("r2c5"), belt("r3c6", "N"), belt("r2c6", "N")],
                         width=8, height=8)
    me = Robot("Twonky", (1, 3), N, archive=(1, 3))
    other = Robot("Hammer", (3, 3), E, archive=(3, 3))
    hand = cards("FWD1 490", "FWD2 670", "RT90 80", "LF90 70", "FWD1 500", "UTRN 10")
    plan = plan_program(board, [me, other], "Twonky", hand, seed="s")
    course = course_map(board)
    best = min(score_robot(course, me, next(r for r in resolve_turn(
        board, [me, other], {"Twonky": list(p)}, seed="s",
        undealt=[c for c in _deck_less(hand)]).robots if r.name == "Twonky")) for p in permutations(hand, 5))
    assert plan.score == best


def _deck_less(hand: list[Card]) -> list[Card]:
    from referee.engine import DECK
    return [c for c in DECK if c not in hand]
