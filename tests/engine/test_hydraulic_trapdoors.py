"""Hydraulic trapdoors: a door of one or more squares holds `carry` real robots; a real robot entering it so
that it holds one more opens it under all the others, and it is left alone on it.

Rulings cited (docs/rulings.md): 13.24.
"""

from .scenarios import belt, element, play, robot

BIG = [element("hydraulic_trapdoor", "r3c3-r3c4", carry=1, door=1),
       element("hydraulic_trapdoor", "r4c3-r4c4", carry=1, door=1)]


def test_one_robot_more_than_it_carries_opens_it_under_the_others():
    p = play(BIG, [robot("Sitter", "r4c4", "N"), robot("Twonky", "r2c3", "N")], {"Twonky": ["FWD1 490"]})
    assert p.at("Sitter") is None
    assert [e["cause"] for e in p.events("Sitter") if e["text"] == "destroyed"] == ["trapdoor"]
    assert p.at("Twonky") == "r3c3"


def test_as_many_robots_as_it_carries_stand_safely_and_virtual_robots_weigh_nothing():
    two = [element("hydraulic_trapdoor", "r3c3-r3c4", carry=2, door=1)]
    p = play(two, [robot("Sitter", "r3c4", "N"), robot("Twonky", "r2c3", "N")], {"Twonky": ["FWD1 490"]})
    assert p.at("Sitter") == "r3c4" and p.at("Twonky") == "r3c3"
    p = play(BIG, [robot("Sitter", "r4c4", "N"), robot("Ghost", "r2c3", "N", virtual=True)], {"Ghost": ["FWD1 490"]})
    assert p.at("Sitter") == "r4c4" and p.at("Ghost") == "r3c3"
    # a virtual robot standing on it falls with the others when a real one sets it off
    p = play(BIG, [robot("Ghost", "r4c4", "N", virtual=True), robot("Sitter", "r4c3", "N"),
                   robot("Twonky", "r2c3", "N")], {"Twonky": ["FWD1 490"]})
    assert p.at("Ghost") is None and p.at("Sitter") is None and p.at("Twonky") == "r3c3"


def test_doors_count_apart():
    doors = [element("hydraulic_trapdoor", "r3c3", carry=1, door=1), element("hydraulic_trapdoor", "r4c3", carry=1,
                                                                          door=2)]
    p = play(doors, [robot("Sitter", "r4c3", "E"), robot("Twonky", "r2c3", "N")], {"Twonky": ["FWD1 490"]})
    assert p.at("Sitter") == "r4c3"  # door 2 holds one: Twonky on door 1 is no weight on it


# -- rules version 3 (issue 33): "If one more robot tries to end his move on it, he sets off the trapdoor"
def test_a_robot_passing_over_it_under_its_card_does_not_set_it_off():
    p = play(BIG, [robot("Sitter", "r4c4", "E"), robot("Twonky", "r2c3", "N")], {"Twonky": ["FWD3 790"]})
    assert p.at("Sitter") == "r4c4" and p.at("Twonky") == "r5c3"


def test_a_card_ending_on_it_after_crossing_it_sets_it_off():
    p = play(BIG, [robot("Sitter", "r4c4", "E"), robot("Twonky", "r2c3", "N")], {"Twonky": ["FWD2 670"]})
    assert p.at("Sitter") is None and p.at("Twonky") == "r4c3"


def test_house_rule_trapdoor_on_passing_keeps_passing_over_setting_it_off():
    p = play(BIG, [robot("Sitter", "r4c4", "E"), robot("Twonky", "r2c3", "N")], {"Twonky": ["FWD3 790"]},
             rules={"trapdoor_on_passing": True})
    assert p.at("Sitter") is None and p.at("Twonky") == "r5c3"


def test_a_belt_carrying_a_robot_on_sets_it_off():
    p = play([*BIG, belt("r3c2", "E")], [robot("Sitter", "r3c4", "N"), robot("Twonky", "r3c2", "N")], {})
    assert p.at("Sitter") is None and p.at("Twonky") == "r3c3"
