"""Big turning gears: two squares with a wall between them, turning 180 degrees like a revolving door in
every register phase a robot stands on them.

Rulings cited (docs/rulings.md): 15.3, 37.
"""

from __future__ import annotations

import pytest

from referee.engine.board import BoardError

from .scenarios import belt, element, engine_board, laser, play, robot

DOOR = element("big_gear", "r3c3", dir="N")  # halves r3c3 and r4c3, a wall between


def test_a_robot_on_one_half_comes_out_on_the_other_half_turned_round():
    p = play([DOOR], [robot("Twonky", "r3c3", "E")], {}, phases=1)
    assert p.at("Twonky") == "r4c3"
    assert p.facing("Twonky") == "W"
    assert p.texts("Twonky", step="gears") == ["carried to r4c3", "face W"]


def test_a_robot_facing_the_wall_still_faces_it_and_both_halves_swap_at_once():
    robots = [robot("Twonky", "r3c3", "N"), robot("Hulk", "r4c3", "E")]
    p = play([DOOR], robots, {}, phases=1)
    assert (p.at("Twonky"), p.facing("Twonky")) == ("r4c3", "S")
    assert (p.at("Hulk"), p.facing("Hulk")) == ("r3c3", "W")


def test_the_wall_in_the_middle_blocks_robots_and_lasers():
    p = play([DOOR, laser("r6c3", "S")], [robot("Twonky", "r2c3", "N")], {"Twonky": ["FWD2 670"]}, phases=1)
    assert p.texts("Twonky", 1, step="robots") == ["move to r3c3", "obstruction encountered"]
    # the gear then turns it behind the wall, into the beam from the north
    assert p.at("Twonky") == "r4c3"
    assert p.damage("Twonky") == 1


def test_a_belt_carries_a_robot_onto_the_gear_before_it_turns():
    p = play([DOOR, belt("r3c2", "E")], [robot("Twonky", "r3c2", "N")], {}, phases=1)
    assert p.at("Twonky") == "r4c3"
    assert p.facing("Twonky") == "S"


def test_a_virtual_robot_turns_the_gear_and_shares_it_with_a_real_one():
    robots = [robot("Ghost", "r3c3", "E", virtual=True), robot("Hulk", "r4c3", "E")]
    p = play([DOOR], robots, {}, phases=2)
    assert p.at("Ghost") == "r3c3" and p.at("Hulk") == "r4c3"  # twice round: back where they were
    assert p.facing("Ghost") == "E"


def test_a_big_gear_needs_its_other_half_on_the_board_and_to_itself():
    with pytest.raises(BoardError, match="other half of the big gear, r6c3, is off the board"):
        engine_board([element("big_gear", "r5c3", dir="N")], width=5, height=5)
    with pytest.raises(BoardError, match="r4c3 is part of a big gear and cannot also hold a belt"):
        engine_board([DOOR, belt("r4c3", "N")])


def test_a_powered_down_robot_alone_on_it_turns_it():
    p = play([DOOR], [robot("Sleepy", "r4c3", "W", powered_down=True)], {}, phases=1)
    assert (p.at("Sleepy"), p.facing("Sleepy")) == ("r3c3", "E")
