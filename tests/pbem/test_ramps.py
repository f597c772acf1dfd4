"""Ramps: the way up a ledge; a robot cannot stop on a ramp it is climbing.

Rulings cited (docs/rulings.md): 29.
"""

from .conftest import play, robot


def test_move_two_climbs_the_ramp_onto_the_upper_level(plateau):
    p = play(plateau, [robot("Twonky", "r3c2", "N")], {"Twonky": ["FWD2 670"]})
    assert p.at("Twonky") == "r5c2"
    assert p.damage("Twonky") == 0


def test_stopping_on_a_ramp_while_climbing_slides_back_down(plateau):
    p = play(plateau, [robot("Twonky", "r3c2", "N")], {"Twonky": ["FWD1 490"]})
    assert p.at("Twonky") == "r3c2"
    assert p.texts("Twonky", 1) == ["move to r4c2", "slide to r3c2"]


def test_move_three_climbs_and_goes_on(plateau):
    p = play(plateau, [robot("Twonky", "r3c2", "N")], {"Twonky": ["FWD3 790"]})
    assert p.at("Twonky") == "r6c2"


def test_from_the_foot_of_the_ramp_one_square_reaches_the_top(plateau):
    p = play(plateau, [robot("Twonky", "r4c2", "N")], {"Twonky": ["FWD1 490"]})
    assert p.at("Twonky") == "r5c2"


def test_driving_down_a_ramp_costs_no_damage(plateau):
    p = play(plateau, [robot("Twonky", "r5c2", "S")], {"Twonky": ["FWD2 670"]})
    assert p.at("Twonky") == "r3c2"
    assert p.damage("Twonky") == 0


def test_a_robot_may_stop_on_a_ramp_going_down(plateau):
    p = play(plateau, [robot("Twonky", "r5c2", "S")], {"Twonky": ["FWD1 490"]})
    assert p.at("Twonky") == "r4c2"
    assert p.damage("Twonky") == 0


def test_the_side_of_a_ramp_is_still_a_ledge(plateau):
    """From the ramp square, north-east is the upper level only through the ramp's top."""
    p = play(plateau, [robot("Twonky", "r4c3", "N")], {"Twonky": ["FWD1 490"]})
    assert p.at("Twonky") == "r4c3"
    assert "obstruction encountered" in p.texts("Twonky", 1)


def test_a_robot_pushed_onto_a_ramp_does_not_slide(plateau):
    robots = [robot("Pusher", "r2c2", "N"), robot("Pushed", "r3c2", "E")]
    p = play(plateau, robots, {"Pusher": ["FWD1 490"]})
    assert p.at("Pushed") == "r4c2"
    assert p.at("Pusher") == "r3c2"


def test_a_pushing_climber_takes_the_robot_ahead_up_with_it(plateau):
    robots = [robot("Twonky", "r3c2", "N"), robot("Block", "r5c2", "E")]
    p = play(plateau, robots, {"Twonky": ["FWD2 670"]})
    assert p.at("Block") == "r6c2"
    assert p.at("Twonky") == "r5c2"


def test_a_climb_blocked_at_the_top_ends_on_the_ramp_and_slides_back(plateau):
    elements = [*plateau, {"kind": "wall", "at": "r5c2", "sides": ["N"]}]
    robots = [robot("Twonky", "r3c2", "N"), robot("Block", "r5c2", "E")]
    p = play(elements, robots, {"Twonky": ["FWD2 670"]})
    assert p.at("Block") == "r5c2"
    assert p.at("Twonky") == "r3c2"
    assert p.texts("Twonky", 1) == ["move to r4c2", "obstruction encountered", "slide to r3c2"]
