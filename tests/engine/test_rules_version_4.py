"""Rules version 4 (issue 44): the last readings against clear text, each with a house rule keeping version
3's reading; ``Rules.for_version(3)`` replays a stored version-3 turn the old ways.

Rulings cited (docs/rulings.md): 14.2.
"""

from __future__ import annotations

import pytest

from referee.boards.scenario import ScenarioError, simulate
from referee.engine import RULES_VERSION, Rules
from referee.engine.state import LEGACY4_RULES

from .options.helpers import holder
from .options.helpers import run as run_options
from .scenarios import Outcome, element, play, pusher, robot, scenario, wall


def test_version_4_is_the_engines_and_version_3_turns_replay_the_old_readings():
    assert RULES_VERSION >= 4
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


# -- reach by the text: a course of two 8 x 8 boards side by side
def course(elements, robots, programs=None, *, rules=None, board_state=None):
    doc = scenario(robots, programs or {}, elements, width=16, height=8, phases=1, seed=0)
    doc["board"]["boards"] = [{"name": "West", "from": "r1c1", "to": "r8c8"},
                              {"name": "East", "from": "r1c9", "to": "r8c16"}]
    if rules:
        doc["rules"] = rules
    if board_state:
        doc["board_state"] = board_state
    return Outcome(simulate(doc), own_fire=False)


def test_a_black_hole_pulls_on_its_own_board_only():
    """Ruling 14.6: "the hole affects the whole board, so its range can be up to 11 squares"."""
    robots = [robot("Near", "r4c7", "N"), robot("Far", "r4c14", "N")]
    p = course([element("black_hole", "r4c2")], robots)
    assert (p.at("Near"), p.at("Far")) == ("r4c6", "r4c14")
    p = course([element("black_hole", "r4c2")], robots, rules={"black_hole_whole_line": True})
    assert (p.at("Near"), p.at("Far")) == ("r4c6", "r4c13")


def test_a_magnet_pulls_on_its_own_board_unless_the_house_rule_gives_it_the_whole_line():
    """Ruling 14.5: the text gives no range; a board element acts on its own board."""
    robots = [robot("Near", "r4c7", "N"), robot("Far", "r4c14", "N")]
    p = course([element("magnet", "r4c2")], robots)
    assert (p.at("Near"), p.at("Far")) == ("r4c6", "r4c14")
    p = course([element("magnet", "r4c2")], robots, rules={"magnet_whole_line": True})
    assert p.at("Far") == "r4c13"


def test_a_ghost_leaving_its_board_is_removed():
    """Ruling 13.28: a ghost that leaves the dark area of its board is removed from the game."""
    ghost = {"ghost": {"Twonky": {"at": "r4c7", "facing": "E", "cards": ["FWD3 800"]}}}
    bots = [robot("Twonky", "r1c1", "N", first_turn=False)]
    p = course([element("grave", "r8c1")], bots, {"Twonky": ["UTRN 10"]}, board_state=ghost)
    assert "ghost gone" in p.ghost_texts("Twonky", 1)
    p = course([element("grave", "r8c1")], bots, {"Twonky": ["UTRN 10"]}, board_state=ghost,
               rules={"ghost_whole_course": True})
    assert "ghost to r4c10" in p.ghost_texts("Twonky", 1)


def test_a_ghost_rises_on_the_first_grave_clockwise_from_its_robots_facing_between_two_equally_near():
    """Ruling 13.28: two graves three squares away, north and south: the robot's facing decides, not the
    order the board lists them in or which way the board is turned."""
    graves = [element("grave", "r1c4"), element("grave", "r7c4")]
    for listed in (graves, graves[::-1]):
        east = play(listed, [robot("Twonky", "r4c4", "E", first_turn=True)], {})
        west = play(listed, [robot("Twonky", "r4c4", "W", first_turn=True)], {})
        assert "ghost rises at r1c4" in east.ghost_texts("Twonky", 1)  # south is a quarter turn clockwise from east
        assert "ghost rises at r7c4" in west.ghost_texts("Twonky", 1)  # north is a quarter turn clockwise from west


def test_a_radio_controlled_robot_plays_its_controllers_card_right_after_it_whichever_is_listed_first():
    """Ruling 16.10: the target plays the card its controller plays, at that priority, right after it (rules
    version 3: the robot listed first moved first). Boss shoots Hulk in register 1; in register 2 both play
    Boss's Move 2 toward each other: Boss goes first, then Hulk drives into it and pushes it back."""
    programs = {"Boss": ["UTRN 10", "FWD2 670"], "Hulk": ["UTRN 20", "FWD1 500"]}
    fire = {"Boss": {"fire": {"1": "Radio Control"}}}
    seats = [holder("Boss", "r3c3", "S", "Radio Control"), robot("Hulk", "r6c3", "N")]
    for listed in (seats, seats[::-1]):
        out = run_options(listed, programs, phases=2, orders=fire)
        assert (out.at("Boss"), out.at("Hulk")) == ("r3c3", "r4c3")


# -- ruling 14.3: a crater's corners slip diagonally
def test_a_robot_ending_its_move_on_a_craters_corner_slips_diagonally():
    corner = [element("sand", "r4c4", dir="N", corner="ne")]
    p = play(corner, [robot("Twonky", "r3c4", "N")], {"Twonky": ["FWD1 490"]})
    assert (p.at("Twonky"), p.facing("Twonky")) == ("r5c5", "N")
    p = play(corner, [robot("Twonky", "r3c4", "N")], {"Twonky": ["FWD1 490"]}, rules={"crater_straight": True})
    assert p.at("Twonky") == "r5c4"


def test_a_wall_at_the_corner_or_a_robot_below_holds_a_diagonal_slip():
    corner = [element("sand", "r4c4", dir="N", corner="ne")]
    p = play([*corner, wall("r4c4", "E")], [robot("Twonky", "r3c4", "N")], {"Twonky": ["FWD1 490"]})
    assert p.at("Twonky") == "r4c4"
    p = play(corner, [robot("Twonky", "r3c4", "N"), robot("Hulk", "r5c5", "W")], {"Twonky": ["FWD1 490"]})
    assert (p.at("Twonky"), p.at("Hulk")) == ("r4c4", "r5c5")


def test_a_craters_corner_slopes_one_of_its_two_ways():
    with pytest.raises(ScenarioError, match="corner"):
        play([element("sand", "r4c4", dir="S", corner="ne")], [robot("Twonky", "r1c1")], {})


def test_blocked_pushers_log_their_robots_in_the_robots_order_in_every_process():
    """Issue 44: the "obstruction encountered" events of pushed robots that stay came out in an order the hash
    seed chose (a set's iteration); they come in the robots' order now (the suite's conftest also plays this
    under PYTHONHASHSEED 0, 1 and 12345 and compares the bytes)."""
    pairs = [("r2", "A", "B"), ("r5", "C", "D"), ("r7", "E", "F")]
    elements = [pusher(f"{row}c{c}", d, 1) for row, _, _ in pairs for c, d in ((2, "E"), (4, "W"))]
    robots = [robot(name, f"{row}c{c}") for row, west, east in pairs for name, c in ((west, 2), (east, 4))]
    p = play(elements, robots, {})
    assert [e["robot"] for e in p.events(text="obstruction encountered")] == list("ABCDEF")


def test_a_square_listed_at_two_heights_is_refused_whichever_is_listed_first():
    """Issue 44 (found by the symmetry benchmark over every kind): the first listed gave the square its height."""
    levels = [element("level", "r6c6"), element("level", "r6c6", height=3)]
    for listed in (levels, levels[::-1]):
        with pytest.raises(ScenarioError, match="two heights"):
            play(listed, [robot("Twonky", "r1c1")], {})


def test_two_flags_on_one_square_are_refused():
    """Which one a robot there touches would be the listing order's choice."""
    with pytest.raises(ScenarioError, match="r3c3 already has a flag"):
        play([element("flag", "r3c3", number=2), element("flag", "r3c3", number=1)], [robot("Twonky", "r1c1")], {})
