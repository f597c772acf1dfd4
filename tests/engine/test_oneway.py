"""One-way walls: robots leave the square through them, never come in; lasers pass.

Rulings cited (docs/rulings.md): 13.2.
"""

import pytest

from referee.boards.scenario import ScenarioError

from .scenarios import belt, element, laser, play, robot

# the one-way wall on the north side of r3c4: out of r3c4 northward yes, into r3c4 from r4c4 no
OUT_NORTH = element("one_way_wall", "r3c4", side="N")


def test_a_robot_leaves_through_a_one_way_wall():
    p = play([OUT_NORTH], [robot("Twonky", "r3c4", "N")], {"Twonky": ["FWD1 490"]})
    assert p.at("Twonky") == "r4c4"


def test_a_robot_cannot_come_in_through_a_one_way_wall():
    p = play([OUT_NORTH], [robot("Twonky", "r5c4", "S")], {"Twonky": ["FWD3 800"]})
    assert p.at("Twonky") == "r4c4"
    assert p.events("Twonky", text="obstruction encountered")


def test_a_robot_backing_up_or_pushed_is_stopped_the_same_way():
    robots = [robot("Shover", "r5c4", "S"), robot("Box", "r4c4", "E")]
    p = play([OUT_NORTH], robots, {"Shover": ["FWD1 490"]})
    assert (p.at("Shover"), p.at("Box")) == ("r5c4", "r4c4")
    p = play([OUT_NORTH], [robot("Twonky", "r4c4", "N")], {"Twonky": ["BACK 430"]})
    assert p.at("Twonky") == "r4c4"


def test_a_belt_cannot_carry_a_robot_in_through_it():
    p = play([OUT_NORTH, belt("r4c4", "S")], [robot("Twonky", "r4c4", "E")], {})
    assert p.at("Twonky") == "r4c4"


def test_a_laser_passes_a_one_way_wall_both_ways():
    p = play([OUT_NORTH, laser("r6c4", "S")], [robot("Twonky", "r2c4", "E")], {})
    assert p.damage("Twonky") == 1


def test_a_one_way_wall_needs_a_side():
    with pytest.raises(ScenarioError, match="one_way_wall needs field 'side'"):
        play([element("one_way_wall", "r3c4")], [robot("Twonky", "r1c1", "N")], {})
