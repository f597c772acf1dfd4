"""Black holes: a pit that pulls every robot in its row and column one square closer, across the board.

Rulings cited (docs/rulings.md): 14.6.
"""

from .scenarios import element, play, robot, wall

HOLE = [element("black_hole", "r4c4")]


def test_the_hole_pulls_robots_in_line_from_across_the_board_and_swallows_them():
    robots = [robot("Twonky", "r4c8", "N"), robot("Hulk", "r4c5", "E"), robot("Spin", "r7c7", "N")]
    p = play(HOLE, robots, {})
    assert p.at("Twonky") == "r4c7"
    assert p.texts("Hulk", 1)[:2] == ["pulled to r4c4", "destroyed"]
    assert p.at("Spin") == "r7c7"


def test_the_pull_passes_walls_but_a_robot_cannot_be_pulled_through_one():
    robots = [robot("Twonky", "r4c8", "N"), robot("Hulk", "r1c4", "N")]
    p = play([*HOLE, wall("r4c6", "E"), wall("r2c4", "N")], robots, {})
    assert p.at("Twonky") == "r4c7"  # behind the wall at r4c6, still pulled up to it
    assert p.at("Hulk") == "r2c4"
    p = play([*HOLE, wall("r4c7", "E")], [robot("Twonky", "r4c8", "N")], {})
    assert p.at("Twonky") == "r4c8"  # the wall is on its way: held


def test_the_hole_is_a_pit_to_a_robot_moving_in():
    p = play(HOLE, [robot("Twonky", "r2c4", "N")], {"Twonky": ["FWD2 670"]})
    assert p.at("Twonky") is None
    assert p.texts("Twonky", 1) == ["move to r4c4", "destroyed"]


def test_the_pull_comes_after_the_pushers_and_before_the_gears():
    """Hulk is pushed into the hole's row, then pulled; Twonky is pulled onto a gear, then turned."""
    elements = [*HOLE, element("pusher", "r3c7", dir="N", phases=[1]), element("gear", "r4c7", turn="right")]
    p = play(elements, [robot("Twonky", "r4c8", "N"), robot("Hulk", "r3c7", "W")], {})
    assert p.texts("Twonky", 1)[:2] == ["pulled to r4c7", "face E"]
    assert p.texts("Hulk", 1)[:2] == ["pushed to r4c7", "pulled to r4c6"]
