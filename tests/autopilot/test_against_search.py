"""The searches of the planner that plans against the others: exact where the cards' priorities
matter, wary of damage, and held to a step budget on boards that are not classic."""

from __future__ import annotations

from itertools import permutations

from referee.autopilot import course_map, plan_against_others, plan_program, score_robot
from referee.autopilot.against import BIG_BOARD_STEPS, budgets
from referee.autopilot.score import score_wary
from referee.autopilot.search import searched
from referee.engine import DECK, Card, Robot, parse_card, resolve_turn
from referee.engine.geometry import E, N, W
from referee.engine.programs import check_program
from tests.engine.scenarios import element, engine_board, flag, laser, pit


def cards(*texts: str) -> list[Card]:
    return [parse_card(t) for t in texts]


def test_with_the_others_moving_the_search_finds_the_best_of_every_ordering():
    # Hammer crosses Twonky's column; Twonky's Move 1s come before and after Hammer's cards (560, 520),
    # so which Move 1 goes where decides who moves first: the search splits them by those priorities only
    board = engine_board([flag("r6c4", 1), pit("r3c5")], width=8, height=8)
    me = Robot("Twonky", (1, 4), N, archive=(1, 4))
    hammer = Robot("Hammer", (3, 3), E, archive=(3, 3))
    theirs = cards("FWD1 560", "FWD1 520", "LF90 110", "FWD1 540", "UTRN 20")
    hand = cards("FWD1 490", "FWD1 580", "FWD1 530", "RT90 80", "FWD2 670", "LF90 70")
    plan = plan_program(board, [me, hammer], "Twonky", hand, seed="s", others={"Hammer": list(theirs)})
    course = course_map(board)
    undealt = [c for c in DECK if c not in hand and c not in theirs]

    def after(program: tuple[Card, ...]) -> Robot:
        result = resolve_turn(board, [me, hammer], {"Twonky": list(program), "Hammer": list(theirs)}, seed="s",
                              undealt=list(undealt))
        return next(r for r in result.robots if r.name == "Twonky")

    assert plan.complete
    assert plan.score == min(score_robot(course, me, after(p)) for p in permutations(hand, 5))
    assert plan.predicted == after(tuple(plan.program))  # type: ignore[arg-type]


def test_the_wary_search_goes_round_a_laser_the_racer_drives_through():
    # a laser down column 4 from the flag: straight up the column is two registers nearer, but 8 damage
    board = engine_board([flag("r9c4", 1), laser("r9c4", "S", 2)], width=8, height=10)
    me = Robot("Twonky", (1, 4), N, archive=(1, 4))
    hand = cards("FWD3 790", "FWD2 670", "FWD1 490", "RT90 80", "LF90 70", "FWD1 500", "RVS1 430", "UTRN 10",
                 "RT90 100")
    racer = plan_program(board, [me], "Twonky", hand)
    wary = plan_program(board, [me], "Twonky", hand, wary=True)
    assert racer.predicted.damage >= 5  # a fused register for two registers of distance
    assert wary.predicted.damage <= 2 and wary.predicted.pos is not None and wary.predicted.pos[1] != 4
    course = course_map(board)
    assert score_wary(course, me, wary.predicted) < score_wary(course, me, racer.predicted)
    assert score_robot(course, me, racer.predicted) < score_robot(course, me, wary.predicted)


def test_the_wary_score_never_counts_less_than_the_distance():
    board = engine_board([flag("r9c4", 1)], width=8, height=10)
    course = course_map(board)
    me = Robot("Twonky", (1, 4), N, archive=(1, 4))
    for damage in range(10):
        after = Robot("Twonky", (3, 4), N, damage=damage, archive=(1, 4))
        plain, wary = score_robot(course, me, after), score_wary(course, me, after)
        assert wary.distance >= plain.distance and wary[:2] == plain[:2]
    one_nearer_two_hurt = Robot("Twonky", (4, 4), N, damage=2, archive=(1, 4))
    assert score_wary(course, me, one_nearer_two_hurt) >= score_wary(course, me, Robot("Twonky", (3, 4), N,
                                                                                           archive=(1, 4)))


def test_on_a_board_that_is_not_classic_the_planner_keeps_to_its_step_budgets():
    # oil makes the board not classic: the search's bound is only a guess there, so the steps are budgeted
    board = engine_board([flag("r10c10", 1), element("oil", "r5c5-r5c8"), pit("r7c7")])
    assert budgets(board) == BIG_BOARD_STEPS
    # rulings 46.a1 and 46.a2 (46.a1's cut taken back): there a prediction gets 120 register steps, the planner's
    # own searches 350 and 450
    assert BIG_BOARD_STEPS == (120, 350, 450)
    me = Robot("Twonky", (2, 2), N, archive=(2, 2))
    others = [Robot("Hammer", (3, 4), W, archive=(3, 4)), Robot("Spin", (4, 2), E, archive=(4, 2))]
    hand = list(DECK[::9][:9])
    plan = plan_against_others(board, [me, *others], "Twonky", hand, seed="t")
    # a search stops at its budget once every register it opened has its best card (the first tried)
    assert plan.steps <= max(BIG_BOARD_STEPS) + 9 * 5
    assert check_program("Twonky", hand, {}, plan.program) == plan.program
    assert budgets(engine_board([flag("r10c10", 1), pit("r7c7")]))[1] > max(BIG_BOARD_STEPS)


def test_a_prediction_is_the_program_the_robots_own_search_picks_without_running_it_once_more():
    # a predicted robot's program is all the planner uses of it: the search stops at the program, the same one
    board = engine_board([flag("r10c10", 1), element("oil", "r5c5-r5c8"), pit("r7c7")])
    robots = [Robot("Hammer", (3, 4), W, archive=(3, 4)), Robot("Twonky", (2, 2), N, archive=(2, 2))]
    hand = list(DECK[::7][:9])
    _, _, score, program = searched(board, robots, "Hammer", hand, seed="t", max_steps=60, order=True, slack=1)
    plan = plan_program(board, robots, "Hammer", hand, seed="t", max_steps=60, order=True, slack=1)
    assert program == plan.program and score == plan.score
