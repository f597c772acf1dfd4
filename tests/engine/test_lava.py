"""Lava pits: pits that erupt in their listed phases when lasers fire, hurting robots beside them.

Rulings cited (docs/rulings.md): 13.6.
"""

import pytest

from referee.boards.scenario import ScenarioError

from .scenarios import element, play, pusher, robot, wall

LAVA = element("lava", "r4c4", phases=[1])


def test_a_robot_entering_a_lava_pit_is_destroyed():
    p = play([LAVA], [robot("Twonky", "r3c4", "N")], {"Twonky": ["FWD1 490"]})
    assert p.at("Twonky") is None
    assert p.events("Twonky", text="destroyed")[0]["cause"] == "lava pit"


def test_an_eruption_hurts_the_four_squares_beside_it_not_the_corners():
    robots = [robot("North", "r5c4", "N"), robot("East", "r4c5", "S"), robot("Corner", "r5c5", "N"),
              robot("Far", "r4c6", "N")]
    p = play([LAVA], robots, {})
    assert (p.damage("North"), p.damage("East"), p.damage("Corner"), p.damage("Far")) == (1, 1, 0, 0)
    assert p.hits("North")[0]["step"] == "lava"


def test_the_expert_rule_reaches_all_eight_squares_around():
    lava = element("lava", "r4c4", phases=[1], reach="around")
    p = play([lava], [robot("Corner", "r5c5", "N")], {})
    assert p.damage("Corner") == 1


def test_lava_erupts_only_in_its_phases_and_over_walls():
    robots = [robot("Twonky", "r4c3", "N")]
    p = play([element("lava", "r4c4", phases=[2]), wall("r4c3", "E")], robots, {}, phases=2)
    assert [e["phase"] for e in p.hits("Twonky")] == [2]


def test_a_robot_pushed_beside_the_lava_is_hurt_after_pushers_move():
    """Pushers act before lasers fire: the robot pushed next to the pit is in reach when it erupts."""
    p = play([LAVA, pusher("r5c5", "W", 1)], [robot("Twonky", "r5c5", "N")], {})
    assert p.at("Twonky") == "r5c4"
    assert p.damage("Twonky") == 1


def test_a_virtual_robot_beside_the_lava_is_hurt_too():
    p = play([LAVA], [robot("Ghosty", "r3c4", "S", virtual=True)], {})
    assert p.damage("Ghosty") == 1


def test_a_bad_reach_is_refused_with_the_choices():
    with pytest.raises(ScenarioError, match="reach must be one of sides, around, not 'everywhere'"):
        play([element("lava", "r4c4", phases=[1], reach="everywhere")], [robot("Twonky", "r1c1", "N")], {})
