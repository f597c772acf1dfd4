"""Drains are bottomless shafts: entering one by any move destroys the robot.

Rulings cited (docs/rulings.md): 13.19.
"""

from .scenarios import belt, element, play, pusher, robot

DRAIN = element("drain", "r3c4")


def test_a_robot_entering_a_drain_is_destroyed():
    p = play([DRAIN], [robot("Twonky", "r2c4", "N")], {"Twonky": ["FWD2 670"]})
    assert p.at("Twonky") is None
    assert p.events("Twonky", text="destroyed")[0]["cause"] == "drain"


def test_belts_and_pushers_drop_robots_into_a_drain():
    p = play([DRAIN, belt("r2c4", "N")], [robot("Twonky", "r2c4", "E")], {})
    assert p.at("Twonky") is None
    p = play([DRAIN, pusher("r3c3", "E", 1)], [robot("Twonky", "r3c3", "N")], {})
    assert p.at("Twonky") is None


def test_a_virtual_robot_falls_into_a_drain_too():
    p = play([DRAIN], [robot("Ghosty", "r4c4", "S", virtual=True)], {"Ghosty": ["FWD1 490"]})
    assert p.at("Ghosty") is None
