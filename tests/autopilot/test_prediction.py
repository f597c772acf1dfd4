"""Property: the program the autopilot picks, re-run through the real engine, ends exactly as predicted.

Random small boards (pits, walls, belts, gears, pushers, lasers, repair sites, randomizers, flags),
one to three robots, a random hand, damage with its fused registers, and a seed. Bounded: a few
dozen examples on 6 x 6 floors.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.autopilot import course_map, plan_program, score_robot
from referee.engine import DECK, Robot, locked_registers, resolve_turn
from referee.engine.programs import check_program
from tests.engine.scenarios import belt, engine_board, flag, gear, laser, pit, pusher, repair, wall

SIZE = 6
squares = st.tuples(st.integers(1, SIZE), st.integers(1, SIZE))
sides = st.sampled_from("NESW")


def _name(sq: tuple[int, int]) -> str:
    return f"r{sq[0]}c{sq[1]}"


def _element(kind: str, at: str, side: str, turn: str) -> dict[str, object]:
    if kind == "pit":
        return pit(at)
    if kind == "wall":
        return wall(at, side)
    if kind == "belt":
        return belt(at, side)
    if kind == "gear":
        return gear(at, turn)
    if kind == "pusher":
        return pusher(at, side, 1, 3, 5)
    if kind == "laser":
        return laser(at, side)
    if kind == "repair":
        return repair(at)
    return {"kind": kind, "at": at}


@st.composite
def elements(draw: st.DrawFn) -> list[dict[str, object]]:
    spots = draw(st.lists(squares, min_size=2, max_size=12, unique=True))
    out: list[dict[str, object]] = [flag(_name(spots[0]), 1)]
    for sq in spots[1:]:
        kind = draw(st.sampled_from(["pit", "wall", "belt", "gear", "pusher", "laser", "repair", "randomizer"]))
        out.append(_element(kind, _name(sq), draw(sides), draw(st.sampled_from(["left", "right"]))))
    return out


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(spec=elements(), places=st.lists(st.tuples(squares, st.integers(0, 3)), min_size=1, max_size=3,
                                        unique_by=lambda p: p[0]),
       damage=st.integers(0, 7), deal=st.integers(0, 10**6), seed=st.integers(0, 99))
def test_the_predicted_end_is_what_the_engine_resolves(spec, places, damage, deal, seed):
    board = engine_board(spec, SIZE, SIZE)
    shuffled = random.Random(deal).sample(DECK, len(DECK))
    cards = shuffled[:9]
    size = min(6, 9 - damage)  # hands of at most 6 cards keep the example quick
    hand, spare = cards[:size], cards[size:]
    locked = dict(zip(locked_registers(damage), spare, strict=False))
    robots = [Robot(f"R{i}", sq, facing, archive=sq) for i, (sq, facing) in enumerate(places)]
    robots[0].damage, robots[0].locked = damage, dict(locked)
    undealt = shuffled[9:]
    plan = plan_program(board, robots, "R0", hand, locked=locked, seed=seed, undealt=undealt)
    assert plan.complete
    assert check_program("R0", hand, locked, plan.program) == plan.program
    result = resolve_turn(board, robots, {"R0": plan.program}, seed=seed, undealt=undealt)
    after = next(r for r in result.robots if r.name == "R0")
    assert score_robot(course_map(board), robots[0], after) == plan.score  # what the search counted on
    assert after == plan.predicted
