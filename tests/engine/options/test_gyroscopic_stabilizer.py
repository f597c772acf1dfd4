"""Gyroscopic Stabilizer: when on (declared for the whole turn), the robot is not turned by gears or
turning belts.

Rulings cited (docs/rulings.md): 16.19.
"""

from tests.engine.scenarios import belt, gear

from .helpers import decisions, holder, run

STAY = {"Twonky": ["UTRN 10", "UTRN 20"]}


def test_on_a_gear_the_stabilized_robot_keeps_its_facing():
    out = run([holder("Twonky", "r3c3", "N", "Gyroscopic Stabilizer")], elements=[gear("r3c3", "right")], phases=1,
              orders={"Twonky": {"gyroscope": True}})
    assert out.facing("Twonky") == "N"
    assert out.texts("Twonky", 1, step="gears") == ["not turned (Gyroscopic Stabilizer)"]
    assert [d["answer"] for d in decisions(out, "gyroscope")] == [True]


def test_off_by_default_the_gear_turns_it_and_its_own_cards_always_turn_it():
    out = run([holder("Twonky", "r3c3", "N", "Gyroscopic Stabilizer")], elements=[gear("r3c3", "right")], phases=1)
    assert out.facing("Twonky") == "E"
    out = run([holder("Twonky", "r3c3", "N", "Gyroscopic Stabilizer")], {"Twonky": ["RT90 80"]}, phases=1,
              standing={"Twonky": {"options": {"gyroscope": True}}})
    assert out.facing("Twonky") == "E"


def test_a_turning_belt_carries_but_does_not_turn_and_a_powered_down_robot_is_stabilized_too():
    out = run([holder("Twonky", "r3c3", "N", "Gyroscopic Stabilizer", powered_down=True)],
              elements=[belt("r3c3", "E"), belt("r3c4", "N")], phases=1, orders={"Twonky": {"gyroscope": True}})
    assert (out.at("Twonky"), out.facing("Twonky")) == ("r3c4", "N")


def test_a_virtual_robot_is_stabilized_and_destroyed_it_loses_the_gyroscope():
    out = run([holder("Twonky", "r3c3", "N", "Gyroscopic Stabilizer", virtual=True)], elements=[gear("r3c3", "left")],
              phases=1, orders={"Twonky": {"gyroscope": True}})
    assert out.facing("Twonky") == "N"
    out = run([holder("Twonky", "r3c3", "N", "Gyroscopic Stabilizer")], {"Twonky": ["FWD1 490"]},
              [{"kind": "pit", "at": "r4c3"}], phases=1, orders={"Twonky": {"gyroscope": True}}, option_deck=[])
    assert out.at("Twonky") is None and out.doc["option_deck"] == ["Gyroscopic Stabilizer"]
