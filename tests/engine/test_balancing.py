"""Balancing platforms: the platform slopes to its most loaded outer area, and every robot on it slides.

Rulings cited (docs/rulings.md): 14.13.
"""

import pytest

from referee.boards.scenario import ScenarioError

from .scenarios import element, pit, play, robot

#: a 3x3 platform on r3-r5 c3-c5: the middle square, the four outer areas (corners in the n and s areas)
PLATFORM = [element("platform", "r5c3-r5c5", area="n"), element("platform", "r3c3-r3c5", area="s"),
            element("platform", "r4c3", area="w"), element("platform", "r4c5", area="e"),
            element("platform", "r4c4", area="middle")]


def test_the_platform_slopes_to_the_heavier_side_and_everyone_on_it_slides_that_way():
    """Two robots in the south area, one in the north and one in the middle: it slopes south."""
    robots = [robot("Twonky", "r3c3", "N"), robot("Hulk", "r3c5", "E"), robot("Spin", "r5c4", "W"),
              robot("Zoom", "r4c4", "N")]
    p = play(PLATFORM, robots, {})
    assert [p.at(n) for n in ("Twonky", "Hulk", "Spin", "Zoom")] == ["r2c3", "r2c5", "r4c4", "r3c4"]
    assert p.facing("Hulk") == "E"  # no turning
    assert p.texts("Spin", 1)[0] == "slide to r4c4"


def test_a_level_platform_does_not_move():
    robots = [robot("Twonky", "r4c3", "N"), robot("Hulk", "r4c5", "N"), robot("Zoom", "r4c4", "N")]
    p = play(PLATFORM, robots, {})  # one west, one east: a tie; the middle weighs nothing
    assert [p.at(n) for n in ("Twonky", "Hulk", "Zoom")] == ["r4c3", "r4c5", "r4c4"]


def test_the_slope_comes_after_the_robots_moved_and_a_robot_may_slide_off_into_a_pit():
    p = play([*PLATFORM, pit("r4c6")], [robot("Twonky", "r2c5", "N")], {"Twonky": ["FWD2 670"]})
    assert p.texts("Twonky", 1)[:3] == ["move to r4c5", "slide to r4c6", "destroyed"]


def test_virtual_robots_weigh_nothing_but_slide_too():
    robots = [robot("Twonky", "r5c4", "N", virtual=True), robot("Hulk", "r4c3", "N")]
    p = play(PLATFORM, robots, {})
    assert p.at("Hulk") == "r4c2" and p.at("Twonky") == "r5c3"


def test_an_unknown_area_is_refused_with_the_choices_named():
    with pytest.raises(ScenarioError, match="area must be one of middle, n, e, s, w"):
        play([element("platform", "r4c4", area="left")], [robot("Twonky", "r1c1", "N")], {})
