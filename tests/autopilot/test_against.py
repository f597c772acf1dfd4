"""The planner that plans against the others: it predicts their programs from what a player sees,
plans the same way twice, always plays a legal program, and steps out of a push it can see coming."""

from __future__ import annotations

import random

from referee.autopilot import plan_against_others, plan_program, predict_programs
from referee.engine import DECK, Board, Card, Robot, locked_registers, parse_card, resolve_turn
from referee.engine.geometry import E, N, W
from referee.engine.programs import check_program
from tests.engine.scenarios import engine_board, flag, pit


def cards(*texts: str) -> list[Card]:
    return [parse_card(t) for t in texts]


# Oddbot has 9 damage: all five registers are fused, face up on the table for everyone to read.
# It turns to face west in register 1 and moves one square west in register 2 (priority 660).
ODDBOT = dict(enumerate(cards("LF90 110", "FWD1 660", "RT90 120", "LF90 130", "RT90 140"), start=1))
# Twonky's hand: turns and slow Move 1s, all of lower priority than Oddbot's Move 1
HAND = cards("LF90 70", "RT90 80", "FWD1 490", "FWD1 500", "FWD1 510", "FWD1 520", "UTRN 10", "RT90 100",
             "LF90 90")


def _push_table() -> tuple[Board, list[Robot]]:
    """Twonky on r3c4 facing east, its flag five rows north, a pit just west of it; Oddbot beside it
    on r3c5, about to turn west and push."""
    board = engine_board([flag("r8c4", 1), pit("r3c3")], width=8, height=8)
    me = Robot("Twonky", (3, 4), E, archive=(1, 4))
    odd = Robot("Oddbot", (3, 5), N, damage=9, locked=dict(ODDBOT), archive=(1, 5))
    return board, [me, odd]


def _twonky_after(board: Board, robots: list[Robot], program: list[Card | None]) -> Robot:
    oddbot = [ODDBOT[reg] for reg in range(1, 6)]
    result = resolve_turn(board, robots, {"Twonky": program, "Oddbot": oddbot}, seed="t",
                          undealt=[c for c in DECK if c not in HAND and c not in oddbot])
    return next(r for r in result.robots if r.name == "Twonky")


def test_a_robot_with_every_register_fused_is_predicted_to_play_them():
    board, robots = _push_table()
    predicted = predict_programs(board, robots, "Twonky", HAND, seed="t")
    assert predicted == {"Oddbot": [ODDBOT[reg] for reg in range(1, 6)]}


def test_standing_still_walks_into_the_push_and_planning_against_it_steps_aside():
    board, robots = _push_table()
    still = plan_program(board, robots, "Twonky", HAND, seed="t")
    against = plan_against_others(board, robots, "Twonky", HAND, seed="t")
    # turning north first leaves Twonky on r3c4 in register 2: Oddbot moves first and pushes it into the pit
    assert _twonky_after(board, robots, still.program).lives == 2
    after = _twonky_after(board, robots, against.program)
    assert after.lives == 3 and not after.destroyed
    assert against.predicted == after  # what it planned for is what the engine makes of it
    assert check_program("Twonky", HAND, {}, against.program) == against.program


def _table(seed: int) -> tuple[Board, list[Robot], list[Card], dict[int, Card]]:
    """Four robots on an open floor, Twonky with a dealt hand and (for some seeds) fused registers."""
    rng = random.Random(seed)
    board = engine_board([flag("r10c10", 1), flag("r2c9", 2), pit("r6c6"), pit("r7c3")])
    squares = rng.sample([(r, c) for r in range(1, 13) for c in range(1, 13) if (r, c) not in ((6, 6), (7, 3))], 4)
    damage = rng.choice([0, 0, 2, 5, 7])
    dealt = rng.sample(DECK, 9)
    hand, spare = dealt[:9 - damage], dealt[9 - damage:]
    locked = dict(zip(locked_registers(damage), spare, strict=False))
    me = Robot("Twonky", squares[0], rng.randrange(4), damage=damage, locked=dict(locked), archive=squares[0])
    others = [Robot(n, sq, rng.randrange(4), damage=rng.choice([0, 3, 6]), archive=sq)
              for n, sq in zip(("Hammer", "Spin", "Zoom"), squares[1:], strict=True)]
    return board, [me, *others], hand, locked


def test_the_same_turn_plans_the_same_and_the_program_fits_the_hand():
    for seed in range(6):
        board, robots, hand, locked = _table(seed)
        first = plan_against_others(board, robots, "Twonky", hand, locked=locked, seed=f"turn{seed}")
        again = plan_against_others(board, robots, "Twonky", hand, locked=locked, seed=f"turn{seed}")
        assert first.program == again.program and first.score == again.score
        assert check_program("Twonky", hand, locked, first.program) == first.program
        assert all(first.program[reg - 1] == card for reg, card in locked.items())


def test_the_prediction_never_deals_the_others_a_card_the_planner_can_see():
    for seed in range(6):
        board, robots, hand, locked = _table(seed)
        predicted = predict_programs(board, robots, "Twonky", hand, locked=locked, seed=f"turn{seed}")
        assert set(predicted) <= {"Hammer", "Spin", "Zoom"}
        for program in predicted.values():
            assert not {c for c in program if c is not None} & {*hand, *locked.values()}


def test_a_powered_down_neighbour_is_not_predicted_and_stands_still():
    board = engine_board([flag("r8c4", 1)], width=8, height=8)
    me = Robot("Twonky", (3, 4), N, archive=(1, 4))
    asleep = Robot("Hammer", (3, 5), W, powered_down=True, archive=(1, 5))
    assert predict_programs(board, [me, asleep], "Twonky", HAND, seed="t") == {}
    plan = plan_against_others(board, [me, asleep], "Twonky", HAND, seed="t")
    assert plan.program == plan_program(board, [me, asleep], "Twonky", HAND, seed="t").program
    assert plan.predicted.pos is not None and plan.predicted.pos[0] > 3  # it drove north, nothing pushed it
