"""Tractor Beam: instead of the main laser, a target not adjacent is pulled one square toward the robot;
no damage."""

from tests.engine.scenarios import bot, pit

from .helpers import holder, run

FIRE = {"Twonky": {"fire": {"1": "Tractor Beam", "2": "Tractor Beam"}}}


def test_a_distant_target_is_pulled_one_square_closer_without_damage():
    out = run([holder("Twonky", "r3c3", "N", "Tractor Beam"), bot("Hulk", "r7c3", "E")], phases=2, orders=FIRE)
    assert (out.at("Hulk"), out.damage("Hulk")) == ("r5c3", 0)


def test_an_adjacent_target_stays_put():
    out = run([holder("Twonky", "r3c3", "N", "Tractor Beam"), bot("Hulk", "r5c3", "E")], phases=2, orders=FIRE)
    assert out.at("Hulk") == "r4c3"  # pulled once, then adjacent


def test_a_target_pulled_over_a_pit_falls_and_a_powered_down_robot_does_not_fire():
    out = run([holder("Twonky", "r3c3", "N", "Tractor Beam"), bot("Hulk", "r6c3", "E")], {}, [pit("r5c3")], phases=1,
              orders=FIRE)
    assert out.at("Hulk") is None
    out = run([holder("Twonky", "r3c3", "N", "Tractor Beam", powered_down=True), bot("Hulk", "r6c3", "E")], phases=1,
              orders=FIRE)
    assert out.at("Hulk") == "r6c3"


def test_a_virtual_robot_in_the_beam_is_passed_and_the_real_one_behind_is_pulled():
    out = run([holder("Twonky", "r3c3", "N", "Tractor Beam"), bot("Zoom", "r5c3", "E", virtual=True),
               bot("Hulk", "r7c3", "E")], phases=1, orders=FIRE)
    assert (out.at("Zoom"), out.at("Hulk")) == ("r5c3", "r6c3")


# -- rules version 3 (issue 33): a Tractor Beam cannot pull an adjacent robot: the main laser fires instead
def test_a_tractor_beam_ordered_at_an_adjacent_robot_fires_the_main_laser():
    out = run([holder("Twonky", "r3c3", "N", "Tractor Beam"), bot("Hulk", "r4c3", "E")], phases=1, orders=FIRE)
    assert out.at("Hulk") == "r4c3" and out.damage("Hulk") == 1
    (decision,) = [d for d in out.doc["decisions"] if d["subject"] == "fire"]
    assert decision["note"] == "Tractor Beam cannot pull Hulk, already adjacent: the main laser fires"


def test_house_rule_weapon_or_nothing_fires_nothing_at_an_adjacent_robot():
    out = run([holder("Twonky", "r3c3", "N", "Tractor Beam"), bot("Hulk", "r4c3", "E")], phases=1, orders=FIRE,
              rules={"weapon_or_nothing": True})
    assert out.at("Hulk") == "r4c3" and out.damage("Hulk") == 0
