"""Magnets: after the belts, every robot in line with a magnet is pulled one square closer.

Rulings cited (docs/rulings.md): 14.5.
"""

from referee.engine import Robot, Rules, parse_square, resolve_turn

from .scenarios import belt, element, engine_board, pit, play, robot, wall

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


# -- rules version 3 (issue 33): no listing or compass order decides
def test_a_robot_in_line_with_two_magnets_pulling_it_different_ways_stays():
    p = play([*MAGNET, element("magnet", "r8c7")], [robot("Twonky", "r4c7", "N")], {})
    assert p.at("Twonky") == "r4c7"
    p = play([*MAGNET, element("magnet", "r4c8")], [robot("Twonky", "r4c6", "N")], {})
    assert p.at("Twonky") == "r4c6" and not p.events("Twonky", text="pulled to r4c5")


def test_two_robots_pulled_onto_the_magnet_from_opposite_sides_both_stay():
    """As two belts carrying robots into one square: neither goes, whichever side of the compass they are on."""
    for a, b in (("r5c4", "r3c4"), ("r4c5", "r4c3"), ("r5c4", "r4c3")):
        p = play(MAGNET, [robot("Twonky", a, "N"), robot("Hulk", b, "N")], {})
        assert (p.at("Twonky"), p.at("Hulk")) == (a, b)


def test_robots_pulled_the_same_way_by_two_magnets_move_one_square():
    p = play([*MAGNET, element("magnet", "r4c2")], [robot("Twonky", "r4c7", "N")], {})
    assert p.at("Twonky") == "r4c6"


def test_rules_version_2_replays_magnets_one_after_another_north_first():
    board = engine_board(MAGNET, 8, 8)
    robots = [Robot("Twonky", parse_square("r5c4"), 0), Robot("Hulk", parse_square("r3c4"), 0)]
    old = resolve_turn(board, robots, {}, phases=1, rules=Rules().for_version(2))
    assert [r.pos for r in old.robots] == [parse_square("r4c4"), parse_square("r3c4")]
