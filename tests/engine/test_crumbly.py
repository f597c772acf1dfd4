"""Crumbly ground: moving over or stopping on it is safe; a turn card executed on it sinks the robot.

Rulings cited (docs/rulings.md): 13.7.
"""

from .scenarios import belt, element, play, robot

CRUMBLY = element("crumbly", "r3c4")


def test_a_robot_turning_on_crumbly_ground_sinks_in():
    p = play([CRUMBLY], [robot("Twonky", "r3c4", "N")], {"Twonky": ["RT90 80"]})
    assert p.at("Twonky") is None
    assert p.robot("Twonky")["lives"] == 2
    assert p.events("Twonky", text="destroyed")[0]["cause"] == "crumbly ground"


def test_moving_over_or_stopping_on_crumbly_ground_is_safe():
    p = play([CRUMBLY], [robot("Twonky", "r2c4", "N")], {"Twonky": ["FWD1 490", "FWD2 670"]}, phases=2)
    assert p.events("Twonky", phase=1, text="move to r3c4")
    assert p.at("Twonky") == "r5c4"
    assert p.damage("Twonky") == 0


def test_a_u_turn_on_crumbly_ground_sinks_too_and_a_move_from_it_does_not():
    p = play([CRUMBLY], [robot("Twonky", "r3c4", "N")], {"Twonky": ["UTRN 10"]})
    assert p.at("Twonky") is None
    p = play([CRUMBLY], [robot("Twonky", "r3c4", "N")], {"Twonky": ["BACK 430"]})
    assert p.at("Twonky") == "r2c4"


def test_a_belt_turning_a_robot_on_crumbly_ground_is_no_turn_card():
    """Only turn cards sink a robot; being carried onto crumbly ground (or turned by gears) does not."""
    p = play([CRUMBLY, belt("r3c3", "E")], [robot("Twonky", "r3c3", "N")], {}, phases=2)
    assert p.at("Twonky") == "r3c4"


def test_a_powered_down_robot_on_crumbly_ground_is_safe():
    p = play([CRUMBLY], [robot("Sleepy", "r3c4", "N", powered_down=True)], {"Sleepy": ["RT90 80"]})
    assert p.at("Sleepy") == "r3c4"
