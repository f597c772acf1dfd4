"""Tilted ground (sand): a robot ending its move on the slope slips one square down, facing as it was.

Rulings cited (docs/rulings.md): 14.3, 44.3.
"""

import pytest

from referee.boards.scenario import ScenarioError

from .scenarios import element, pit, play, robot, wall

SLOPE = [element("sand", "r4c1-r4c8", dir="S")]


def test_a_robot_ending_its_move_on_the_slope_slips_one_square_down():
    p = play(SLOPE, [robot("Twonky", "r6c4", "S")], {"Twonky": ["FWD2 670"]})
    assert p.texts("Twonky", 1) == ["move to r4c4", "slide to r3c4"]
    assert p.facing("Twonky") == "S"


def test_a_robot_crossing_the_slope_does_not_slip():
    p = play(SLOPE, [robot("Twonky", "r5c4", "S")], {"Twonky": ["FWD2 670"]})
    assert p.at("Twonky") == "r3c4"
    assert p.texts("Twonky", 1) == ["move to r3c4"]


def test_only_one_square_even_onto_more_slope():
    """A crater wall two squares deep, sloping east into a pit: a robot stopping on the upper square
    slips onto the lower one and stays there, one square from the pit."""
    crater = [element("sand", "r4c2-r4c3", dir="E"), pit("r4c4")]
    p = play(crater, [robot("Twonky", "r5c2", "S")], {"Twonky": ["FWD1 490"]})
    assert p.at("Twonky") == "r4c3"


def test_a_wall_or_a_robot_downhill_holds_the_robot_on_the_slope():
    p = play([*SLOPE, wall("r4c4", "S")], [robot("Twonky", "r5c4", "S")], {"Twonky": ["FWD1 490"]})
    assert p.at("Twonky") == "r4c4"
    robots = [robot("Twonky", "r5c4", "S"), robot("Hulk", "r3c4", "N")]
    p = play(SLOPE, robots, {"Twonky": ["FWD1 490"]})
    assert p.at("Twonky") == "r4c4" and p.at("Hulk") == "r3c4"


def test_slipping_into_a_pit_destroys_the_robot():
    p = play([*SLOPE, pit("r3c4")], [robot("Twonky", "r5c4", "S")], {"Twonky": ["FWD1 490"]})
    assert p.at("Twonky") is None


def test_a_robot_turning_on_the_slope_or_pushed_onto_it_stays():
    p = play(SLOPE, [robot("Twonky", "r4c4", "N")], {"Twonky": ["RT90 80"]})
    assert p.at("Twonky") == "r4c4"
    p = play(SLOPE, [robot("Box", "r5c6", "N"), robot("Pusher", "r6c6", "S")], {"Pusher": ["FWD1 490"]})
    assert p.at("Box") == "r4c6"


def test_a_slope_without_a_direction_or_with_a_bad_one_is_refused_by_name():
    with pytest.raises(ScenarioError, match="sand needs field 'dir'"):
        play([element("sand", "r4c4")], [robot("Twonky", "r1c1", "N")], {})
    with pytest.raises(ScenarioError, match=r"element 1 \(sand at r4c4\)"):
        play([element("sand", "r4c4", dir="down")], [robot("Twonky", "r1c1", "N")], {})
