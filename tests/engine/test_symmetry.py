"""A board plays the same however it is turned and in whatever order its file lists elements and robots
(issue 33): random scenarios of classic and extended elements against their twins turned 90, 180 and 270
degrees and re-ordered, outcomes read back into the original frame. A fixed seed here; a longer run is
``benchmarks/bench_symmetry.py``."""

from __future__ import annotations

import random

import pytest

from referee.engine import Robot, Rules, parse_card, parse_square, resolve_turn

from .scenarios import element, engine_board, play, robot
from .symmetry import CLASSIC, differences, random_scenario

#: how many random scenarios the suite plays (the benchmark script plays thousands); 52 and 59 differed
#: before issue 33
SCENARIOS = 64


@pytest.mark.parametrize("batch", range(4))
def test_random_scenarios_play_alike_turned_and_reordered(batch):
    for i in range(batch, SCENARIOS, 4):
        doc = random_scenario(random.Random(f"symmetry:{i}"))
        assert differences(doc, random.Random(f"twin:{i}")) == [], f"scenario symmetry:{i}"


def test_classic_boards_crowded_with_robots_play_alike():
    for i in range(10):
        doc = random_scenario(random.Random(f"classic:{i}"), kinds=CLASSIC, elements=24, robots=6)
        assert differences(doc, random.Random(f"twin:classic:{i}")) == [], f"scenario classic:{i}"


# -- what the random scenarios found, as rule book examples
def hydraulic(at: str, direction: str) -> dict[str, object]:
    return element("hydraulic_pusher", at, dir=direction, phases=[1])


def test_two_hydraulic_pushers_facing_each_other_push_their_robots_until_they_meet():
    """Both push at once, a square at a time: the robots meet in the middle, whichever pusher is listed first."""
    p = play([hydraulic("r2c1", "E"), hydraulic("r2c8", "W")], [robot("West", "r2c1", "N"), robot("East", "r2c8", "N")],
             {})
    assert p.at("West") == "r2c4" and p.at("East") == "r2c5"


def test_rules_version_2_replays_hydraulic_pushers_one_after_another():
    board = engine_board([hydraulic("r2c1", "E"), hydraulic("r2c8", "W")], 8, 8)
    robots = [Robot("West", parse_square("r2c1"), 0), Robot("East", parse_square("r2c8"), 0)]
    old = resolve_turn(board, robots, {}, phases=1, rules=Rules().for_version(2))
    new = resolve_turn(board, robots, {}, phases=1)
    assert [r.pos for r in new.robots] == [parse_square("r2c4"), parse_square("r2c5")]
    assert [r.pos for r in old.robots] != [r.pos for r in new.robots]


def test_robots_on_randomizers_draw_in_card_priority_order_not_listing_order():
    board = engine_board([element("randomizer", "r2c2"), element("randomizer", "r5c5")], 8, 8)
    twonky, hulk = Robot("Twonky", parse_square("r2c2"), 0), Robot("Hulk", parse_square("r5c5"), 0)
    programs = {"Twonky": [parse_card("FWD1 490")], "Hulk": [parse_card("FWD2 700")]}
    one = resolve_turn(board, [twonky, hulk], programs, phases=1, seed=7)
    other = resolve_turn(board, [hulk, twonky], programs, phases=1, seed=7)
    assert one.played["Twonky"] == other.played["Twonky"] and one.played["Hulk"] == other.played["Hulk"]


def test_a_robot_two_pushers_on_its_square_push_different_ways_stays():
    elements = [element("pusher", "r3c3", dir="N", phases=[1]), element("pusher", "r3c3", dir="E", phases=[1])]
    for listed in (elements, elements[::-1]):
        p = play(listed, [robot("Twonky", "r3c3", "W")], {})
        assert p.at("Twonky") == "r3c3" and p.events("Twonky", text="obstruction encountered")


def test_robots_drawing_options_at_once_draw_in_card_priority_order():
    """Two robots on radioactive waste draw when checkpoints are touched: the higher priority draws first."""
    board = engine_board([element("radioactive_waste", "r2c2"), element("radioactive_waste", "r5c5")], 8, 8)
    twonky, hulk = Robot("Twonky", parse_square("r2c2"), 0), Robot("Hulk", parse_square("r5c5"), 0)
    programs = {"Twonky": [parse_card("UTRN 10")], "Hulk": [parse_card("UTRN 20")]}
    deck = ["Brakes", "Shield", "Recompile"]
    for robots in ([twonky, hulk], [hulk, twonky]):
        result = resolve_turn(board, robots, programs, phases=1, option_deck=list(deck))
        held = {r.name: r.options for r in result.robots}
        assert held == {"Hulk": ["Brakes"], "Twonky": ["Shield"]}
