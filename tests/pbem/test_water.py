"""Water: a card executed from water loses its first square; entering water is free.

Rulings cited (docs/rulings.md): 32.
"""

from .conftest import play, robot, rows

POOL = rows("water", 3, 4)


def test_move_one_from_water_does_not_move():
    p = play(POOL, [robot("Twonky", "r3c4", "N")], {"Twonky": ["FWD1 490"]})
    assert p.at("Twonky") == "r3c4"
    assert p.texts("Twonky", 1) == ["first square lost in water"]


def test_move_two_from_water_moves_one():
    p = play(POOL, [robot("Twonky", "r3c4", "N")], {"Twonky": ["FWD2 670"]})
    assert p.at("Twonky") == "r4c4"


def test_move_three_from_water_moves_two():
    p = play(POOL, [robot("Twonky", "r3c4", "N")], {"Twonky": ["FWD3 790"]})
    assert p.at("Twonky") == "r5c4"


def test_back_up_from_water_does_not_move():
    p = play(POOL, [robot("Twonky", "r4c4", "N")], {"Twonky": ["RVS1 430"]})
    assert p.at("Twonky") == "r4c4"


def test_entering_water_from_dry_floor_costs_nothing():
    p = play(POOL, [robot("Twonky", "r1c4", "N")], {"Twonky": ["FWD3 790"]})
    assert p.at("Twonky") == "r4c4"


def test_turning_in_water_works_as_usual():
    p = play(POOL, [robot("Twonky", "r3c4", "N")], {"Twonky": ["RT90 80"]})
    assert p.robots["Twonky"]["facing"] == "E"


def test_a_robot_in_water_can_still_be_pushed():
    robots = [robot("Pusher", "r2c4", "N"), robot("Swimmer", "r3c4", "E")]
    p = play(POOL, robots, {"Pusher": ["FWD1 490"]})
    assert p.at("Swimmer") == "r4c4"
    assert p.at("Pusher") == "r3c4"
