"""Waterfalls: a current carrying robots down the levels, 2 damage for every level fallen.

Rulings cited (docs/rulings.md): 14.14.
"""

from .scenarios import element, play, robot, rows

#: rows 5-8 at height 2, the falls at r5c4 pouring south onto the floor (height 0) at r4c4
CLIFF = [*rows("level", 5, 8, height=2), element("waterfall", "r5c4", dir="S")]


def test_a_robot_carried_over_the_falls_takes_two_damage_a_level():
    p = play(CLIFF, [robot("Twonky", "r5c4", "N")], {})
    assert p.at("Twonky") == "r4c4"
    assert p.texts("Twonky", 1)[0] == "carried to r4c4"
    assert p.damage("Twonky") == 4


def test_one_level_down_costs_two_as_any_ledge():
    p = play([*rows("level", 5, 8, height=1), element("waterfall", "r5c4", dir="S")],
             [robot("Twonky", "r5c4", "N")], {})
    assert p.damage("Twonky") == 2


def test_the_falls_are_water_a_card_from_them_loses_its_first_square():
    p = play(CLIFF, [robot("Twonky", "r5c4", "E")], {"Twonky": ["FWD2 670"]})
    assert p.at("Twonky") == "r5c5"


def test_a_robot_below_the_falls_holds_the_one_carried_down():
    p = play(CLIFF, [robot("Twonky", "r5c4", "N"), robot("Hulk", "r4c4", "E")], {})
    assert p.at("Twonky") == "r5c4" and p.damage("Twonky") == 0
