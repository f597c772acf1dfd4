"""Rotating conveyor belts: at the start of the board elements' moves they turn into the position of the
phase (a quarter turn a phase), then carry robots as belts of their colour do.

Rulings cited (docs/rulings.md): 15.7.
"""

from __future__ import annotations

import pytest

from referee.engine.board import BoardError

from .scenarios import belt, element, engine_board, laser, play, robot, wall


def rotating(at: str, direction: str, turn: str, express: bool = False) -> dict[str, object]:
    return element("rotating_belt", at, dir=direction, turn=turn, express=express)


def test_the_belt_points_a_quarter_turn_further_each_phase():
    """r3c3 points N in phase 1; r4c3 points E in phase 1 and N in phase 2 (turning left)."""
    elements = [rotating("r3c3", "N", "right"), rotating("r4c3", "E", "left")]
    p = play(elements, [robot("Twonky", "r3c3", "W")], {}, phases=1)
    assert p.at("Twonky") == "r4c3"
    assert p.facing("Twonky") == "N"  # carried onto a belt pointing east in phase 1: turned right
    p = play(elements, [robot("Twonky", "r3c3", "W")], {}, phases=2)
    assert p.at("Twonky") == "r5c3"  # r4c3 points north in phase 2 (E turned left)


def test_a_robot_standing_on_it_is_not_turned_when_it_turns_and_rides_the_phase_direction():
    """Phase 1 the belt points north into a wall: the robot stays. Phase 2 it points east and carries it."""
    elements = [rotating("r3c3", "N", "right"), wall("r3c3", "N")]
    p = play(elements, [robot("Twonky", "r3c3", "W")], {}, phases=1)
    assert (p.at("Twonky"), p.facing("Twonky")) == ("r3c3", "W")
    p = play(elements, [robot("Twonky", "r3c3", "W")], {}, phases=2)
    assert (p.at("Twonky"), p.facing("Twonky")) == ("r3c4", "W")


def test_an_express_rotating_belt_moves_twice_and_lasers_hit_where_the_robot_ends():
    elements = [rotating("r3c2", "N", "right", express=True), rotating("r4c2", "N", "right", express=True),
                laser("r5c8", "W")]
    p = play(elements, [robot("Twonky", "r3c2", "E")], {}, phases=1)
    assert p.texts("Twonky", 1, step="express") == ["conveyed to r4c2"]
    assert p.texts("Twonky", 1, step="belts") == ["conveyed to r5c2"]
    assert p.damage("Twonky") == 1


def test_robots_on_a_rotating_belt_and_an_ordinary_belt_follow_the_usual_conflict_rules():
    """Phase 1 Twonky's belt points into a wall; phase 2 it points E into r3c4, whose belt points back W at
    it: head-on, both stay."""
    elements = [rotating("r3c3", "N", "right"), wall("r3c3", "N"), belt("r3c4", "W")]
    robots = [robot("Twonky", "r3c3", "N"), robot("Hulk", "r3c4", "N")]
    p = play(elements, robots, {}, phases=2)
    assert (p.at("Twonky"), p.at("Hulk")) == ("r3c3", "r3c4")
    assert not [e for e in p.events() if e["text"].startswith("conveyed")]


def test_a_virtual_robot_rides_it_too_and_bad_fields_are_named():
    p = play([rotating("r3c3", "N", "left")], [robot("Ghost", "r3c3", "N", virtual=True)], {}, phases=1)
    assert p.at("Ghost") == "r4c3"
    with pytest.raises(BoardError, match="turn must be one of left, right"):
        engine_board([element("rotating_belt", "r3c3", dir="N", turn="clockwise")])
