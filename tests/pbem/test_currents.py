"""Currents: water that carries robots one square after the belts, with the belts' conflict rules."""

from .conftest import play, robot


def test_a_current_carries_a_robot_one_square():
    p = play([{"kind": "current", "at": "r3c2-r3c6", "dir": "E"}], [robot("Twonky", "r3c3", "N")], {})
    assert p.at("Twonky") == "r3c4"
    assert p.robots["Twonky"]["facing"] == "N"


def test_a_current_is_water_for_cards_too():
    p = play([{"kind": "current", "at": "r3c2-r3c6", "dir": "E"}], [robot("Twonky", "r3c3", "N")],
             {"Twonky": ["FWD1 490"]})
    assert p.texts("Twonky", 1) == ["first square lost in water", "carried to r3c4"]


def test_currents_move_after_the_belts():
    elements = [{"kind": "belt", "at": "r2c3", "dir": "N"}, {"kind": "current", "at": "r3c3", "dir": "E"}]
    p = play(elements, [robot("Twonky", "r2c3", "N")], {})
    # the belt puts it in the current, which then carries it on in the same phase
    assert p.at("Twonky") == "r3c4"
    steps = [e["step"] for e in p.events() if e["robot"] == "Twonky"]
    assert steps.index("belts") < steps.index("currents")


def test_a_current_into_a_pit_destroys():
    elements = [{"kind": "current", "at": "r3c3", "dir": "E"}, {"kind": "pit", "at": "r3c4"}]
    p = play(elements, [robot("Twonky", "r3c3", "N")], {})
    assert p.at("Twonky") is None
    assert p.robots["Twonky"]["destroyed"]


def test_a_current_does_not_push_a_robot_in_its_way():
    elements = [{"kind": "current", "at": "r3c3", "dir": "E"}]
    p = play(elements, [robot("Swimmer", "r3c3", "N"), robot("Dry", "r3c4", "N")], {})
    assert p.at("Swimmer") == "r3c3"
    assert p.at("Dry") == "r3c4"


def test_two_currents_into_one_dry_square_move_nobody():
    elements = [{"kind": "current", "at": "r3c3", "dir": "E"}, {"kind": "current", "at": "r3c5", "dir": "W"}]
    p = play(elements, [robot("A", "r3c3", "N"), robot("B", "r3c5", "N")], {})
    assert p.at("A") == "r3c3" and p.at("B") == "r3c5"


def test_a_current_stops_at_a_wall():
    elements = [{"kind": "current", "at": "r3c3", "dir": "E"}, {"kind": "wall", "at": "r3c3", "sides": ["E"]}]
    p = play(elements, [robot("Twonky", "r3c3", "N")], {})
    assert p.at("Twonky") == "r3c3"


def test_a_current_carries_a_robot_off_the_edge():
    p = play([{"kind": "current", "at": "r3c8", "dir": "E"}], [robot("Twonky", "r3c8", "N")], {})
    assert p.at("Twonky") is None
