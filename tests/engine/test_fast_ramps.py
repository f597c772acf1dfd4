"""Fast ramps: an express belt running up a ramp carries robots up onto the level above; the ledge at
its top can be crossed; a robot stopping on it climbing is held there by the belt, not slid back.

Rulings cited (docs/rulings.md): 14.18.
"""

from .scenarios import element, express, play, robot, rows

PLATEAU = [*rows("level", 5, 8, height=1)]  # rows 5-8 one level up
RAMP = element("fast_ramp", "r4c2", dir="N")


def test_a_robot_on_the_fast_ramp_is_carried_up_onto_the_level_without_damage():
    p = play([*PLATEAU, RAMP], [robot("Twonky", "r4c2", "E")], {})
    assert p.at("Twonky") == "r5c2" and p.facing("Twonky") == "E"
    assert p.damage("Twonky") == 0
    assert p.texts("Twonky", 1) == ["conveyed to r5c2"]  # the second express square: off the belt, it stays


def test_an_express_belt_into_the_ledge_stops_there_but_a_fast_ramp_goes_up():
    flat = play([*PLATEAU, express("r4c2", "N")], [robot("Twonky", "r4c2", "N")], {})
    assert flat.at("Twonky") == "r4c2"  # a ledge: no belt climbs it
    fed = play([*PLATEAU, RAMP, express("r4c1", "E")], [robot("Twonky", "r4c1", "E")], {})
    # the express belt puts it on the ramp (turned to face up it) in the first sub-step, the ramp lifts it
    assert fed.at("Twonky") == "r5c2" and fed.facing("Twonky") == "N"


def test_a_robot_driving_onto_it_is_held_by_the_belt_and_carried_up():
    p = play([*PLATEAU, RAMP], [robot("Twonky", "r3c2", "N")], {"Twonky": ["FWD1 490"]})
    assert p.texts("Twonky", 1)[:2] == ["move to r4c2", "conveyed to r5c2"]
    assert p.at("Twonky") == "r5c2"


def test_driving_down_it_costs_nothing_and_the_belt_carries_the_robot_back_up():
    p = play([*PLATEAU, RAMP], [robot("Twonky", "r5c2", "S")], {"Twonky": ["FWD1 490"]})
    assert p.damage("Twonky") == 0
    assert p.at("Twonky") == "r5c2"
    p = play([*PLATEAU, RAMP], [robot("Twonky", "r5c2", "S")], {"Twonky": ["FWD2 670"]})
    assert p.at("Twonky") == "r3c2" and p.damage("Twonky") == 0
