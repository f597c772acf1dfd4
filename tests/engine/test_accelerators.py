"""Particle accelerators: robots on the ring are moved along it, one square more each phase, up to 10 (then
1 damage a phase too); diagonals; never turned; the speed is kept from turn to turn.

Rulings cited (docs/rulings.md): 14.17.
"""

import pytest

from referee.boards.scenario import ScenarioError
from referee.engine import Robot, resolve_turn
from referee.engine.geometry import parse_square

from .scenarios import element, engine_board, play, robot, run, wall

# a ring of eight squares round r4c4, clockwise (north edge going east), corners cut diagonally
RING = [element("accelerator", "r5c3", to="e"), element("accelerator", "r5c4", to="se"),
        element("accelerator", "r4c5", to="s"), element("accelerator", "r3c5", to="sw"),
        element("accelerator", "r2c4", to="w"), element("accelerator", "r2c3", to="nw"),
        element("accelerator", "r3c2", to="n"), element("accelerator", "r4c2", to="ne")]
ORDER = ["r5c3", "r5c4", "r4c5", "r3c5", "r2c4", "r2c3", "r3c2", "r4c2"]


def ahead(start, squares):
    return ORDER[(ORDER.index(start) + squares) % len(ORDER)]


def test_one_square_in_the_first_phase_then_one_more_each_phase_without_turning():
    p = play(RING, [robot("Twonky", "r5c3", "W")], {}, phases=3)
    # 1, then 2, then 3 squares: 6 in all, diagonals included
    assert p.at("Twonky") == ahead("r5c3", 1 + 2 + 3)
    assert p.facing("Twonky") == "W"
    assert p.robot("Twonky")["option_data"] == {"accelerator": {"speed": 3}}


def test_the_speed_carries_into_the_next_turn_and_tops_out_at_ten_with_damage():
    board = engine_board(RING, width=8, height=8)
    fast = Robot("Twonky", parse_square("r5c3"), 3, option_data={"accelerator": {"speed": 9}})
    result = resolve_turn(board, [fast], {}, phases=2)
    after = result.robots[0]
    assert after.option_data["accelerator"]["speed"] == 10
    assert after.damage == 1  # phase 1: 9 -> 10, no damage; phase 2: at 10 already, 1 damage
    assert after.pos == parse_square(ahead("r5c3", 10 + 10))
    assert after.facing == 3


def test_walls_do_not_stop_it_but_a_robot_ahead_does_and_leaving_the_ring_loses_the_speed():
    walled = play([*RING, wall("r5c3", "E")], [robot("Twonky", "r5c3", "W")], {}, phases=1)
    assert walled.at("Twonky") == "r5c4"
    # the faster Twonky moves first and stops behind Hulk, who then moves on (rules version 4: robots of one
    # speed would move together, whichever is listed first)
    blocked = play(RING, [robot("Twonky", "r5c3", "W", option_data={"accelerator": {"speed": 1}}),
                          robot("Hulk", "r5c4", "N")], {}, phases=1)
    assert blocked.at("Twonky") == "r5c3" and blocked.at("Hulk") == "r4c5"
    off = play(RING, [robot("Twonky", "r5c3", "N")], {"Twonky": ["UTRN 10", "FWD1 490"]}, phases=3)
    # phase 1 whirled to r5c4 facing south; phase 2 drives south off the ring to r4c4: speed gone
    assert "accelerator" not in off.robot("Twonky").get("option_data", {})


def test_a_ring_that_does_not_close_is_refused():
    with pytest.raises(ScenarioError, match="the ring must close"):
        run([], {}, RING[:-1], width=8, height=8)
