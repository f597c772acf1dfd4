"""Radiation burns in register phase 5 only, after the lasers.

Rulings cited (docs/rulings.md): 13.4.
"""

from .scenarios import element, laser, play, robot

RAD = element("radiation", "r3c4")


def test_radiation_does_one_damage_in_phase_5_only():
    p = play([RAD], [robot("Twonky", "r3c4", "N")], {}, phases=5)
    assert p.damage("Twonky") == 1
    assert [e["phase"] for e in p.hits("Twonky")] == [5]


def test_radiation_comes_after_board_lasers():
    p = play([RAD, laser("r3c1", "E")], [robot("Twonky", "r3c4", "N")], {}, phases=5)
    steps = [e["step"] for e in p.hits("Twonky", phase=5)]
    assert steps == ["lasers", "radiation"]


def test_virtual_and_powered_down_robots_are_irradiated_too():
    robots = [robot("Ghosty", "r3c4", "N", virtual=True), robot("Sleepy", "r5c5", "N", powered_down=True)]
    p = play([RAD, element("radiation", "r5c5")], robots, {}, phases=5)
    assert p.damage("Ghosty") == 1 and p.damage("Sleepy") == 1


def test_a_robot_that_moves_off_before_phase_5_is_safe():
    p = play([RAD], [robot("Twonky", "r3c4", "N")], {"Twonky": ["UTRN 10", "UTRN 20", "UTRN 30", "UTRN 40",
                                                               "FWD1 490"]}, phases=5)
    assert p.at("Twonky") == "r4c4"
    assert p.damage("Twonky") == 0
