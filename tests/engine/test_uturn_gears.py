"""U-turn gears: a robot on one is turned round (180 degrees) every register phase, when the gears turn.

Rulings cited (docs/rulings.md): 15.2.
"""

from __future__ import annotations

from .scenarios import belt, element, laser, play, robot

UTURN = element("uturn_gear", "r3c3")


def test_a_robot_on_a_uturn_gear_is_turned_round_every_phase():
    p = play([UTURN], [robot("Twonky", "r3c3", "N")], {}, phases=1)
    assert p.facing("Twonky") == "S"
    assert p.texts("Twonky", step="gears") == ["face S"]
    p = play([UTURN], [robot("Twonky", "r3c3", "N")], {}, phases=2)
    assert p.facing("Twonky") == "N"


def test_a_belt_carries_a_robot_onto_a_uturn_gear_before_it_turns():
    p = play([belt("r2c3", "N"), UTURN], [robot("Twonky", "r2c3", "E")], {}, phases=1)
    assert p.at("Twonky") == "r3c3"
    assert p.facing("Twonky") == "W"


def test_a_robot_moving_off_the_gear_is_not_turned():
    p = play([UTURN], [robot("Twonky", "r3c3", "N")], {"Twonky": ["FWD1 490"]}, phases=1)
    assert p.at("Twonky") == "r4c3"
    assert p.facing("Twonky") == "N"


def test_the_turned_robot_fires_the_other_way_in_the_same_phase():
    """Gears turn before lasers fire: a robot on the gear facing away from Hulk shoots him."""
    p = play([UTURN], [robot("Twonky", "r3c3", "N"), robot("Hulk", "r1c3", "E")], {},
             phases=1)
    assert p.facing("Twonky") == "S"
    hulk_hits = [e for e in p.events("Hulk") if e["text"] == "-1 HP"]
    assert [e.get("by") for e in hulk_hits] == ["Twonky"]


def test_virtual_and_powered_down_robots_are_turned_too():
    robots = [robot("Ghost", "r3c3", "E", virtual=True), robot("Sleepy", "r5c5", "E", powered_down=True)]
    p = play([UTURN, element("uturn_gear", "r5c5"), laser("r5c1", "E")], robots, {}, phases=1)
    assert p.facing("Ghost") == "W"
    assert p.facing("Sleepy") == "W"
