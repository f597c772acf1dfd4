"""Flamers: in their active phases, entering or turning on one costs 1 HP, and standing on one when
lasers fire 1 more."""

from .conftest import play, robot

ODD = [{"kind": "flamer", "at": "r3c4", "phases": [1, 3, 5]}]


def test_entering_an_active_flamer_costs_one_and_standing_on_it_one_more():
    p = play(ODD, [robot("Twonky", "r2c4", "N")], {"Twonky": ["FWD1 490"]})
    assert p.at("Twonky") == "r3c4"
    assert p.damage("Twonky") == 2
    steps = [e["step"] for e in p.events() if e["robot"] == "Twonky" and e["text"] == "-1 HP"]
    assert steps == ["robots", "flamers"]


def test_turning_on_an_active_flamer_costs_one():
    p = play(ODD, [robot("Twonky", "r3c4", "N")], {"Twonky": ["RT90 80"]}, phases=1)
    assert p.robots["Twonky"]["facing"] == "E"
    assert p.damage("Twonky") == 2  # one for turning, one when lasers fire


def test_an_inactive_flamer_does_nothing():
    even = [{"kind": "flamer", "at": "r3c4", "phases": [2, 4]}]
    p = play(even, [robot("Twonky", "r2c4", "N")], {"Twonky": ["FWD1 490"]})
    assert p.at("Twonky") == "r3c4"
    assert p.damage("Twonky") == 0


def test_passing_over_an_active_flamer_costs_one():
    p = play(ODD, [robot("Twonky", "r2c4", "N")], {"Twonky": ["FWD2 670"]})
    assert p.at("Twonky") == "r4c4"
    assert p.damage("Twonky") == 1


def test_a_robot_pushed_onto_an_active_flamer_burns():
    robots = [robot("Pusher", "r1c4", "N"), robot("Box", "r2c4", "W")]
    p = play(ODD, robots, {"Pusher": ["FWD1 490"]})
    assert p.at("Box") == "r3c4"
    burns = [e["step"] for e in p.events() if e["robot"] == "Box" and e.get("cause") == "flamer"]
    assert burns == ["robots", "flamers"]  # pushed in, then standing on it; Pusher's laser is the third HP
    assert p.damage("Box") == 3
