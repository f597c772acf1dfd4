"""Mag-locks: in their active phases a robot moving onto one stops, and nothing moves it off.

Rulings cited (docs/rulings.md): 14.12.
"""

from .scenarios import belt, element, play, robot

LOCK = [element("mag_lock", "r3c4", phases=[1, 3])]


def test_a_robot_moving_over_an_active_mag_lock_stops_on_it():
    p = play(LOCK, [robot("Twonky", "r2c4", "N")], {"Twonky": ["FWD3 800"]})
    assert p.at("Twonky") == "r3c4"
    assert p.texts("Twonky", 1)[:2] == ["move to r3c4", "locked by the mag-lock"]


def test_a_locked_robot_ignores_its_movement_cards_but_turns():
    p = play(LOCK, [robot("Twonky", "r3c4", "N")], {"Twonky": ["FWD2 670"]})
    assert p.at("Twonky") == "r3c4"
    p = play(LOCK, [robot("Twonky", "r3c4", "N")], {"Twonky": ["RT90 80"]})
    assert p.facing("Twonky") == "E"


def test_a_locked_robot_cannot_be_pushed_or_carried_and_blocks_its_pusher():
    p = play(LOCK, [robot("Twonky", "r3c4", "N"), robot("Hulk", "r2c4", "N")], {"Hulk": ["FWD1 490"]})
    assert p.at("Twonky") == "r3c4" and p.at("Hulk") == "r2c4"
    p = play([*LOCK, belt("r3c4", "E")], [robot("Twonky", "r3c4", "N")], {})
    assert p.at("Twonky") == "r3c4"


def test_a_robot_pushed_onto_an_active_mag_lock_is_caught_there():
    robots = [robot("Hulk", "r1c4", "N"), robot("Twonky", "r2c4", "N")]
    p = play(LOCK, robots, {"Hulk": ["FWD2 670"]})
    assert p.at("Twonky") == "r3c4"
    assert p.at("Hulk") == "r2c4"  # the second push is refused: Twonky is locked


def test_an_inactive_mag_lock_is_floor():
    p = play([element("mag_lock", "r3c4", phases=[2])], [robot("Twonky", "r2c4", "N")], {"Twonky": ["FWD3 800"]})
    assert p.at("Twonky") == "r5c4"
