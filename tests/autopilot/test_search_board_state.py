"""The search against brute force on random small boards whose elements remember (barricades taking hits):
the search's best program scores as well as the best of every program of the hand, and the score it reports is
what the engine makes of its program (issue 33: its memo keys and caches include the board state)."""

from __future__ import annotations

import random
from itertools import permutations

import pytest

from referee.autopilot import course_map, plan_program, score_robot
from referee.engine import DECK, BoardState, Robot, resolve_turn
from tests.engine.scenarios import engine_board

SIZE = 6
SIDES = "NESW"


def random_case(rng: random.Random) -> tuple[list[dict], Robot, list, BoardState]:
    """A 6 x 6 floor: a flag, a few pits, walls and barricades (some already hit), one robot, a hand of 7."""
    squares = [(r, c) for r in range(1, SIZE + 1) for c in range(1, SIZE + 1)]
    rng.shuffle(squares)
    flag_at, start, *rest = squares
    elements: list[dict] = [{"kind": "flag", "at": f"r{flag_at[0]}c{flag_at[1]}", "number": 1}]
    state = BoardState()
    for sq in rest[:rng.randint(0, 3)]:
        elements.append({"kind": "pit", "at": f"r{sq[0]}c{sq[1]}"})
    used_sides: set[tuple[tuple[int, int], str]] = set()  # a side once, seen from its south or west square
    for sq in rest[3:3 + rng.randint(3, 8)]:
        side = rng.choice(SIDES)
        face = (sq, side) if side in "NE" else ((sq[0] - 1, sq[1]), "N") if side == "S" else ((sq[0], sq[1] - 1), "E")
        if face in used_sides:
            continue
        used_sides.add(face)
        name = f"r{sq[0]}c{sq[1]}"
        if rng.random() < 0.3:
            elements.append({"kind": "wall", "at": name, "sides": [side]})
            continue
        strength = rng.randint(1, 3)
        elements.append({"kind": "barricade", "at": name, "sides": [side], "strength": strength})
        if rng.random() < 0.5:
            state.set("barricade", f"{name} {side}", rng.randint(0, strength - 1))
    me = Robot("Twonky", start, rng.randrange(4), archive=start)
    hand = rng.sample(list(DECK), 7)
    return elements, me, hand, state


def brute_force(board, me, hand, state):
    course = course_map(board)
    best = None
    seen = set()
    for program in permutations(hand, 5):
        types = tuple(c.type for c in program)
        if types in seen:
            continue
        seen.add(types)
        undealt = [c for c in DECK if c not in hand]
        result = resolve_turn(board, [me], {me.name: list(program)}, undealt=undealt, board_state=state)
        score = score_robot(course, me, result.robots[0])
        if best is None or score < best:
            best = score
    return best


#: boards 14, 283 and 315 are among those the search got wrong while its keys left out the board state
SEEDS = [14, 283, 315, *range(9)]


@pytest.mark.parametrize("seed", SEEDS)
def test_the_search_finds_the_brute_force_best_on_boards_that_remember(seed):
    rng = random.Random(f"search-state:{seed}")
    elements, me, hand, state = random_case(rng)
    board = engine_board(elements, SIZE, SIZE)
    undealt = [c for c in DECK if c not in hand]
    plan = plan_program(board, [me], me.name, hand, undealt=undealt, board_state=state)
    assert plan.complete
    result = resolve_turn(board, [me], {me.name: plan.program}, undealt=undealt, board_state=state)
    assert score_robot(course_map(board), me, result.robots[0]) == plan.score  # the score it reports is true
    assert plan.score == brute_force(board, me, hand, state)
