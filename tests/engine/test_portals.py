"""Portals: a robot entering a portal comes out of the linked one, unless a robot stands there.

Rulings cited (docs/rulings.md): 14.8.
"""

import pytest

from referee.boards.scenario import ScenarioError

from .scenarios import belt, element, play, robot, wall

PAIR = [element("portal", "r3c2", pair=1), element("portal", "r6c7", pair=1)]


def test_a_robot_entering_a_portal_comes_out_of_the_linked_one_and_its_card_goes_on():
    p = play(PAIR, [robot("Twonky", "r1c2", "N")], {"Twonky": ["FWD3 800"]})
    assert p.texts("Twonky", 1) == ["move to r3c2", "through portal to r6c7", "move to r7c7"]
    assert p.facing("Twonky") == "N"


def test_an_occupied_exit_leaves_the_robot_on_the_portal_it_entered():
    robots = [robot("Twonky", "r2c2", "N"), robot("Hulk", "r6c7", "E")]
    p = play(PAIR, robots, {"Twonky": ["FWD1 490"]})
    assert p.at("Twonky") == "r3c2"
    assert p.at("Hulk") == "r6c7"


def test_portal_into_portal_ends_when_the_move_is_spent():
    """Out of pair 1 at r6c7 and straight into pair 2 at r7c7: each jump takes a move into a portal."""
    portals = [*PAIR, element("portal", "r7c7", pair=2), element("portal", "r2c5", pair=2)]
    p = play(portals, [robot("Twonky", "r2c2", "N")], {"Twonky": ["FWD3 800"]})
    assert p.texts("Twonky", 1) == ["move to r3c2", "through portal to r6c7", "move to r7c7",
                                    "through portal to r2c5", "move to r3c5"]


def test_a_robot_coming_out_of_a_portal_does_not_bounce_back_when_its_move_ends_there():
    p = play(PAIR, [robot("Twonky", "r2c2", "N")], {"Twonky": ["FWD1 490", "FWD1 500"]}, phases=2)
    assert p.texts("Twonky", 1) == ["move to r3c2", "through portal to r6c7"]
    assert p.at("Twonky") == "r7c7"


def test_pushed_and_conveyed_robots_go_through_too():
    robots = [robot("Twonky", "r1c2", "N"), robot("Box", "r2c2", "E")]
    p = play(PAIR, robots, {"Twonky": ["FWD1 490"]})
    assert p.at("Box") == "r6c7" and p.at("Twonky") == "r2c2"
    p = play([*PAIR, belt("r6c6", "E")], [robot("Twonky", "r6c6", "N")], {})
    assert p.texts("Twonky", 1)[:2] == ["conveyed to r6c7", "through portal to r3c2"]


def test_walls_on_the_far_side_still_stop_the_robot_after_the_jump():
    p = play([*PAIR, wall("r6c7", "N")], [robot("Twonky", "r2c2", "N")], {"Twonky": ["FWD2 670"]})
    assert p.at("Twonky") == "r6c7"
    assert p.texts("Twonky", 1)[-1] == "obstruction encountered"


def test_a_portal_without_its_partner_is_refused_with_the_pair_named():
    with pytest.raises(ScenarioError, match="portal pair 2 has 1 portal"):
        play([*PAIR, element("portal", "r5c5", pair=2)], [robot("Twonky", "r1c1", "N")], {})
    with pytest.raises(ScenarioError, match="pair must be a whole number from 1 to 9"):
        play([element("portal", "r5c5", pair=0)], [robot("Twonky", "r1c1", "N")], {})
