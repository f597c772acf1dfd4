"""Rules version 4 (issue 44): the last readings against clear text, each with a house rule keeping version
3's reading; ``Rules.for_version(3)`` replays a stored version-3 turn the old ways."""

from __future__ import annotations

from referee.engine import RULES_VERSION, Rules
from referee.engine.state import LEGACY4_RULES

from .scenarios import element, play, pusher, robot, wall


def test_version_4_is_the_engines_and_version_3_turns_replay_the_old_readings():
    assert RULES_VERSION == 4
    old = Rules().for_version(3)
    assert all(getattr(old, name) for name in LEGACY4_RULES) and not old.seat_free
    assert Rules().seat_free and not any(getattr(Rules(), name) for name in LEGACY4_RULES)
    assert not set(Rules().to_dict()) & LEGACY4_RULES  # written into a game's rules only when set


# -- ruling 14.2: oil after a pusher
OIL_LANE = [element("oil", "r5c5-r5c8"), wall("r5c8", "E"), pusher("r5c4", "E", 1)]


def test_a_robot_a_pusher_pushes_onto_oil_slides_pushing_a_robot_on_oil_ahead():
    """Ruling 14.2: only a robot NOT on an oil slick stops a slide, so A slides and pushes B to the wall."""
    p = play(OIL_LANE, [robot("A", "r5c4", "N"), robot("B", "r5c6", "N")], {})
    assert (p.at("A"), p.at("B")) == ("r5c7", "r5c8")


def test_house_rule_pusher_slides_hold_keeps_version_3s_slide_that_pushes_nobody():
    p = play(OIL_LANE, [robot("A", "r5c4", "N"), robot("B", "r5c6", "N")], {},
             rules={"pusher_slides_hold": True})
    assert (p.at("A"), p.at("B")) == ("r5c5", "r5c6")


def test_a_robot_on_dry_floor_still_holds_a_slide_after_a_pusher():
    p = play([element("oil", "r5c5-r5c6"), pusher("r5c4", "E", 1)],
             [robot("A", "r5c4", "N"), robot("B", "r5c7", "N")], {})
    assert (p.at("A"), p.at("B")) == ("r5c6", "r5c7")


# -- ruling 13.24: a weight (hydraulic) trapdoor and a robot pushed across it
DOOR = [element("hydraulic_trapdoor", "r5c5-r5c6", carry=1)]


def test_a_robot_pushed_across_a_hydraulic_trapdoor_does_not_set_it_off():
    """Ruling 13.24: the door goes off when a robot "tries to end his move on it"; Y only passes over it."""
    p = play(DOOR, [robot("X", "r5c5"), robot("P", "r3c6"), robot("Y", "r4c6")], {"P": ["FWD3 790"]})
    assert (p.at("P"), p.at("Y"), p.at("X")) == ("r6c6", "r7c6", "r5c5")


def test_a_robot_pushed_onto_a_hydraulic_trapdoor_and_left_there_sets_it_off():
    p = play(DOOR, [robot("X", "r5c5"), robot("P", "r3c6"), robot("Y", "r4c6")], {"P": ["FWD1 490"]})
    assert (p.at("Y"), p.at("X")) == ("r5c6", None)


def test_house_rule_trapdoor_pushed_across_keeps_version_3s_door_going_off_under_a_pushed_robot():
    p = play(DOOR, [robot("X", "r5c5"), robot("P", "r3c6"), robot("Y", "r4c6")], {"P": ["FWD3 790"]},
             rules={"trapdoor_pushed_across": True})
    assert (p.at("Y"), p.at("X")) == ("r7c6", None)


# -- ruling 15.x particle accelerators: no seat order breaks a tie of speeds
SMALL_RING = [element("accelerator", "r5c5", to="n"), element("accelerator", "r6c5", to="e"),
              element("accelerator", "r6c6", to="s"), element("accelerator", "r5c6", to="w")]


def test_robots_of_one_speed_on_an_accelerator_ring_move_together_whichever_is_listed_first():
    for listed in ([robot("A", "r5c5"), robot("B", "r6c5")], [robot("B", "r6c5"), robot("A", "r5c5")]):
        p = play(SMALL_RING, listed, {})
        assert (p.at("A"), p.at("B")) == ("r6c5", "r6c6")


def test_a_full_accelerator_ring_of_one_speed_stays_put():
    robots = [robot(n, sq) for n, sq in zip("ABCD", ("r5c5", "r6c5", "r6c6", "r5c6"), strict=True)]
    p = play(SMALL_RING, robots, {})
    assert [p.at(n) for n in "ABCD"] == ["r5c5", "r6c5", "r6c6", "r5c6"]
