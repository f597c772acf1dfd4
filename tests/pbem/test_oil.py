"""Oil slicks: a card ending on oil slides on the way the robot moved; a card from oil loses a square."""

from .conftest import play, robot

SLICK = [{"kind": "oil", "at": "r3c4-r5c4"}]


def test_a_robot_ending_its_move_on_oil_slides_to_dry_floor():
    p = play(SLICK, [robot("Twonky", "r1c4", "N")], {"Twonky": ["FWD2 670"]})
    assert p.at("Twonky") == "r6c4"
    assert p.texts("Twonky", 1) == ["move to r3c4", "slide to r4c4", "slide to r5c4", "slide to r6c4"]


def test_a_wall_stops_the_slide_on_the_oil():
    walls = [*SLICK, {"kind": "wall", "at": "r4c4", "sides": ["N"]}]
    p = play(walls, [robot("Twonky", "r1c4", "N")], {"Twonky": ["FWD2 670"]})
    assert p.at("Twonky") == "r4c4"


def test_a_robot_on_dry_floor_in_the_way_stops_the_slide_and_is_not_pushed():
    robots = [robot("Twonky", "r1c4", "N"), robot("Hulk", "r6c4", "E")]
    p = play(SLICK, robots, {"Twonky": ["FWD2 670"]})
    assert p.at("Twonky") == "r5c4"
    assert p.at("Hulk") == "r6c4"


def test_a_robot_standing_on_the_oil_has_no_grip_and_is_pushed_ahead_of_the_slide():
    robots = [robot("Twonky", "r1c4", "N"), robot("Hulk", "r5c4", "E")]
    p = play(SLICK, robots, {"Twonky": ["FWD2 670"]})
    assert p.at("Twonky") == "r5c4"
    assert p.at("Hulk") == "r6c4"
    assert p.texts("Hulk", 1)[0] == "pushed to r6c4"


def test_oil_into_oil_slides_to_the_end_of_the_slick_and_stops():
    """A slick across the whole board: the slide runs one way only, so it ends at the edge."""
    p = play([{"kind": "oil", "at": "r4c1-r4c8"}], [robot("Twonky", "r4c2", "E")], {"Twonky": ["FWD2 670"]})
    assert p.at("Twonky") is None
    assert p.texts("Twonky", 1)[-2:] == ["slide to r4c8", "destroyed"]


def test_a_robot_sliding_off_the_board_is_destroyed():
    p = play([{"kind": "oil", "at": "r6c4-r8c4"}], [robot("Twonky", "r5c4", "N")], {"Twonky": ["FWD1 490"]})
    assert p.at("Twonky") is None
    assert "destroyed" in p.texts("Twonky", 1)


def test_a_card_executed_from_oil_loses_its_first_square():
    p = play(SLICK, [robot("Twonky", "r4c4", "E")], {"Twonky": ["FWD2 670"]})
    assert p.at("Twonky") == "r4c5"


def test_a_robot_pushed_onto_oil_does_not_slide():
    robots = [robot("Pusher", "r1c4", "N"), robot("Box", "r2c4", "W")]
    p = play(SLICK, robots, {"Pusher": ["FWD1 490"]})
    assert p.at("Box") == "r3c4"


def test_a_backing_robot_slides_backwards():
    p = play(SLICK, [robot("Twonky", "r6c4", "S")], {"Twonky": ["RVS1 430"]})
    assert p.at("Twonky") == "r7c4"
    p = play(SLICK, [robot("Twonky", "r6c4", "N")], {"Twonky": ["RVS1 430"]})
    assert p.at("Twonky") == "r2c4"
