"""Doors: open in the phases listed in `open`, closed in the others; a closed door is a wall for robots
and lasers, an open one is an open side.

Rulings cited (docs/rulings.md): 13.20.
"""

from .scenarios import belt, element, laser, play, pusher, robot

DOOR = element("door", "r3c4", sides=["N"], open=[2, 4])


def test_a_closed_door_stops_a_robot_either_way():
    p = play([DOOR], [robot("Up", "r3c4", "N")], {"Up": ["FWD2 670"]})
    assert p.at("Up") == "r3c4"
    assert p.events("Up", text="obstruction encountered")
    p = play([DOOR], [robot("Down", "r4c4", "S")], {"Down": ["FWD1 490"]})
    assert p.at("Down") == "r4c4"


def test_an_open_door_lets_the_robot_through():
    """Phase 1 the door is shut; phase 2 it opens and the robot walks through."""
    p = play([DOOR], [robot("Twonky", "r3c4", "N")], {"Twonky": ["FWD1 490", "FWD1 500"]}, phases=2)
    assert p.events("Twonky", phase=1, text="obstruction encountered")
    assert p.at("Twonky") == "r4c4"


def test_a_closed_door_stops_board_lasers_an_open_one_lets_them_through():
    p = play([DOOR, laser("r6c4", "S")], [robot("Twonky", "r2c4", "E")], {}, phases=2)
    assert [e["phase"] for e in p.hits("Twonky")] == [2]


def test_a_closed_door_stops_robot_lasers_too():
    robots = [robot("Gunner", "r2c4", "N"), robot("Target", "r5c4", "E")]
    p = play([DOOR], robots, {}, phases=2)
    assert [e["phase"] for e in p.hits("Target")] == [2]


def test_pushes_pushers_and_belts_meet_the_closed_door():
    robots = [robot("Shover", "r2c4", "N"), robot("Box", "r3c4", "E")]
    p = play([DOOR], robots, {"Shover": ["FWD1 490"]})
    assert (p.at("Shover"), p.at("Box")) == ("r2c4", "r3c4")
    p = play([DOOR, pusher("r3c4", "N", 1, 2)], [robot("Twonky", "r3c4", "E")], {}, phases=2)
    assert p.events("Twonky", phase=1, text="obstruction encountered") and p.at("Twonky") == "r4c4"
    p = play([DOOR, belt("r4c4", "S")], [robot("Twonky", "r4c4", "E")], {}, phases=2)
    assert p.at("Twonky") == "r3c4"  # held in phase 1, carried through the open door in phase 2
