"""Force fields stop robots like walls, always; lasers shoot through them.

Rulings cited (docs/rulings.md): 13.10, 13.17.
"""

from .scenarios import belt, element, laser, play, robot

FIELD = element("force_field", "r3c4", sides=["N"])


def test_a_force_field_stops_a_robot_both_ways_without_harm():
    p = play([FIELD], [robot("Up", "r3c4", "N"), robot("Down", "r5c6", "S")], {"Up": ["FWD2 670"]})
    assert p.at("Up") == "r3c4" and p.damage("Up") == 0
    p = play([FIELD], [robot("Down", "r4c4", "S")], {"Down": ["FWD1 490"]})
    assert p.at("Down") == "r4c4"


def test_pushes_and_belts_are_stopped_too():
    robots = [robot("Shover", "r2c4", "N"), robot("Box", "r3c4", "E")]
    p = play([FIELD], robots, {"Shover": ["FWD1 490"]})
    assert (p.at("Shover"), p.at("Box")) == ("r2c4", "r3c4")
    p = play([FIELD, belt("r4c4", "S")], [robot("Twonky", "r4c4", "E")], {}, phases=3)
    assert p.at("Twonky") == "r4c4"


def test_board_and_robot_lasers_shoot_through():
    p = play([FIELD, laser("r6c4", "S")], [robot("Twonky", "r2c4", "E")], {})
    assert p.damage("Twonky") == 1
    p = play([FIELD], [robot("Gunner", "r2c4", "N"), robot("Target", "r5c4", "E")], {})
    assert p.damage("Target") == 1


LOOPHOLE = element("loophole", "r3c4", sides=["N"])


def test_a_loophole_stops_robots_like_a_wall():
    p = play([LOOPHOLE], [robot("Up", "r3c4", "N")], {"Up": ["FWD1 490"]})
    assert p.at("Up") == "r3c4"
    robots = [robot("Shover", "r5c4", "S"), robot("Box", "r4c4", "E")]
    p = play([LOOPHOLE], robots, {"Shover": ["FWD1 490"]})
    assert (p.at("Shover"), p.at("Box")) == ("r5c4", "r4c4")


def test_robots_shoot_through_a_loophole():
    p = play([LOOPHOLE], [robot("Gunner", "r2c4", "N"), robot("Target", "r5c4", "E")], {})
    assert p.damage("Target") == 1
