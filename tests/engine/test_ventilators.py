"""Ventilators: in their active phases, after the pushers, the robots in their line are blown away.

Rulings cited (docs/rulings.md): 14.11.
"""

from .scenarios import element, pit, play, robot, wall


def fan(count: int = 1, phases: tuple[int, ...] = (1, 2, 3, 4, 5)) -> list[dict]:
    """A ventilator at r4c1 on the west wall, blowing east along row 4."""
    return [element("ventilator", "r4c1", dir="E", phases=list(phases), count=count), wall("r4c1", "W")]


def test_every_robot_in_the_line_is_blown_count_squares_downwind_farthest_first():
    robots = [robot("Twonky", "r4c2", "N"), robot("Hulk", "r4c3", "S"), robot("Spin", "r5c3", "N")]
    p = play(fan(2), robots, {})
    assert p.texts("Hulk", 1)[:2] == ["blown to r4c4", "blown to r4c5"]
    assert p.at("Twonky") == "r4c4" and p.facing("Twonky") == "N"
    assert p.at("Spin") == "r5c3"


def test_a_wall_shelters_the_robots_behind_it_and_a_robot_that_stays_holds_the_one_behind():
    p = play([*fan(3), wall("r4c3", "E")], [robot("Twonky", "r4c2", "N"), robot("Hulk", "r4c5", "N")], {})
    assert p.at("Twonky") == "r4c3"  # blown up to the wall and held there
    assert p.at("Hulk") == "r4c5"  # beyond the wall, out of the line


def test_only_in_the_active_phases():
    p = play(fan(1, (2, 4)), [robot("Twonky", "r4c3", "N")], {}, phases=2)
    assert p.texts("Twonky", 1, step="ventilators") == []
    assert p.texts("Twonky", 2, step="ventilators") == ["blown to r4c4"]


def test_blown_into_a_pit_or_off_the_board_the_robot_is_destroyed():
    p = play([*fan(1), pit("r4c4")], [robot("Twonky", "r4c3", "N")], {})
    assert p.at("Twonky") is None
    p = play(fan(2), [robot("Twonky", "r4c7", "N")], {})
    assert p.texts("Twonky", 1)[:2] == ["blown to r4c8", "destroyed"]


# -- rules version 3 (issue 33): all ventilators of a phase act at once, each robot at most once
CROSSWIND = [*fan(1), element("ventilator", "r8c5", dir="S", phases=[1, 2, 3, 4, 5], count=1), wall("r8c5", "N")]


def test_a_robot_blown_into_another_ventilators_line_is_not_blown_again_in_that_phase():
    p = play(CROSSWIND, [robot("Twonky", "r4c4", "N")], {})
    assert p.texts("Twonky", 1, step="ventilators") == ["blown to r4c5"]


def test_a_robot_in_the_lines_of_ventilators_blowing_different_ways_stays():
    """Hulk, where the east wind and the south wind cross, stays; Twonky, in the east wind only, is blown on."""
    p = play(CROSSWIND, [robot("Twonky", "r4c6", "N"), robot("Hulk", "r4c5", "N")], {})
    assert p.at("Hulk") == "r4c5" and p.at("Twonky") == "r4c7"
