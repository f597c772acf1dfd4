"""Magnets: after the belts, every robot in line with a magnet is pulled one square closer."""

from .scenarios import belt, element, pit, play, robot, wall

MAGNET = [element("magnet", "r4c4")]


def test_robots_in_the_magnets_row_and_column_are_pulled_one_square_closer():
    robots = [robot("Twonky", "r4c8", "N"), robot("Hulk", "r1c4", "E"), robot("Spin", "r6c6", "N")]
    p = play(MAGNET, robots, {})
    assert p.at("Twonky") == "r4c7" and p.facing("Twonky") == "N"
    assert p.at("Hulk") == "r2c4" and p.facing("Hulk") == "E"
    assert p.at("Spin") == "r6c6"  # not in line
    assert p.texts("Twonky", 1)[0] == "pulled to r4c7"


def test_a_line_of_robots_closes_up_together_nearest_first():
    robots = [robot("Twonky", "r4c6", "N"), robot("Hulk", "r4c7", "N"), robot("Spin", "r4c8", "N")]
    p = play(MAGNET, robots, {})
    assert [p.at(n) for n in ("Twonky", "Hulk", "Spin")] == ["r4c5", "r4c6", "r4c7"]


def test_the_field_stops_at_a_wall_and_a_robot_next_to_the_magnet_is_pulled_onto_it():
    robots = [robot("Twonky", "r4c1", "N"), robot("Hulk", "r5c4", "N")]
    p = play([*MAGNET, wall("r4c2", "E")], robots, {})
    assert p.at("Twonky") == "r4c1"
    assert p.at("Hulk") == "r4c4"


def test_the_pull_comes_after_the_belts_and_can_drag_a_robot_into_a_pit():
    elements = [*MAGNET, belt("r4c8", "W"), pit("r4c6")]
    p = play(elements, [robot("Twonky", "r4c8", "N")], {})
    assert p.texts("Twonky", 1)[:3] == ["conveyed to r4c7", "pulled to r4c6", "destroyed"]


def test_a_real_robot_in_the_way_holds_a_pulled_robot_and_is_not_pushed():
    """Twonky stands on the magnet (it is not pulled); Hulk, next to it, has nowhere to go."""
    robots = [robot("Twonky", "r4c4", "N"), robot("Hulk", "r4c5", "W")]
    p = play(MAGNET, robots, {})
    assert p.at("Twonky") == "r4c4"
    assert p.at("Hulk") == "r4c5"
    assert not [t for t in p.texts("Hulk", 1) if t.startswith("pulled")]


def test_a_robot_in_line_with_two_magnets_is_pulled_by_each_in_turn():
    p = play([*MAGNET, element("magnet", "r8c7")], [robot("Twonky", "r4c7", "N")], {})
    # r4c4 comes first in board order: west to r4c6, out of column 7; r8c7 then finds nobody in line
    assert p.at("Twonky") == "r4c6"
    p = play([*MAGNET, element("magnet", "r4c8")], [robot("Twonky", "r4c6", "N")], {})
    assert p.texts("Twonky", 1)[:2] == ["pulled to r4c5", "pulled to r4c6"]
