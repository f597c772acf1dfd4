"""Crossgears: a cross of five squares turning a quarter turn every register phase; a robot on an arm is
carried to the next arm round (diagonally) and turned with it.

Rulings cited (docs/rulings.md): 15.4.
"""

from __future__ import annotations

import pytest

from referee.engine.board import BoardError

from .scenarios import belt, element, engine_board, laser, play, pusher, robot

LEFT = element("crossgear", "r4c4", turn="left")  # centre r4c4, arms r5c4 r4c5 r3c4 r4c3


def test_the_rule_book_example_a_robot_on_the_south_arm_looking_south_ends_on_the_east_arm_looking_east():
    p = play([LEFT], [robot("Twonky", "r3c4", "S")], {}, phases=1)
    assert p.at("Twonky") == "r4c5"
    assert p.facing("Twonky") == "E"
    assert p.texts("Twonky", step="gears") == ["carried to r4c5", "face E"]


def test_a_robot_on_the_centre_turns_on_the_spot_and_every_arm_moves_at_once():
    right = element("crossgear", "r4c4", turn="right")
    robots = [robot("Centre", "r4c4", "N"), robot("North", "r5c4", "N"), robot("East", "r4c5", "E")]
    p = play([right], robots, {}, phases=1)
    assert (p.at("Centre"), p.facing("Centre")) == ("r4c4", "E")
    assert (p.at("North"), p.facing("North")) == ("r4c5", "E")
    assert (p.at("East"), p.facing("East")) == ("r3c4", "S")


def test_a_robot_pushed_onto_an_arm_is_carried_round_then_meets_a_laser_there():
    elements = [LEFT, pusher("r2c4", "N", 1), laser("r4c8", "W")]
    p = play(elements, [robot("Twonky", "r2c4", "E")], {}, phases=1)
    assert p.at("Twonky") == "r4c5"
    assert p.damage("Twonky") == 1


def test_a_belt_carries_a_robot_onto_an_arm_before_the_gear_turns():
    p = play([LEFT, belt("r4c2", "E")], [robot("Twonky", "r4c2", "E")], {}, phases=1)
    assert p.at("Twonky") == "r3c4"
    assert p.facing("Twonky") == "N"


def test_a_virtual_robot_sharing_an_arm_with_a_real_one_is_carried_with_it():
    robots = [robot("Ghost", "r3c4", "N", virtual=True), robot("Hulk", "r3c4", "E")]
    p = play([LEFT], robots, {}, phases=1)
    assert p.at("Ghost") == p.at("Hulk") == "r4c5"
    assert (p.facing("Ghost"), p.facing("Hulk")) == ("W", "N")


def test_a_crossgear_needs_its_arms_on_the_board_and_to_itself():
    with pytest.raises(BoardError, match="N arm, r6c3, is off the board"):
        engine_board([element("crossgear", "r5c3", turn="left")], width=5, height=5)
    with pytest.raises(BoardError, match="r5c4 is part of a crossgear and cannot also hold a pit"):
        engine_board([LEFT, element("pit", "r5c4")])


def test_a_powered_down_robot_is_carried_round_too():
    p = play([LEFT], [robot("Sleepy", "r4c3", "W", powered_down=True)], {}, phases=1)
    assert (p.at("Sleepy"), p.facing("Sleepy")) == ("r3c4", "S")
