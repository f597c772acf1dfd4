"""Pushers push robots onto tilted ground, oil and hydraulic trapdoors: the timing text, board elements
move 12, "Pushers and hydraulic pushers push ... Robots who got pushed in craters/tilted ground, oil
slicks, giant trapdoors, (...) get affected by them (again!)" (rules version 3, issue 33)."""

from .scenarios import element, play, pusher, robot, wall


def hydraulic(at: str, direction: str, *phases: int) -> dict[str, object]:
    return element("hydraulic_pusher", at, dir=direction, phases=list(phases))


def test_a_robot_pushed_onto_tilted_ground_slips_down_one_square():
    p = play([pusher("r2c2", "E", 1), element("sand", "r2c3", dir="N")], [robot("Twonky", "r2c2", "W")], {})
    assert p.texts("Twonky", 1, step="pushers") == ["pushed to r2c3", "slide to r3c3"]
    assert p.at("Twonky") == "r3c3" and p.facing("Twonky") == "W"


def test_two_robots_pushed_onto_slopes_into_one_square_both_stay():
    """All slips happen together, as belts move robots: the order of the pushers on the board decides nothing."""
    elements = [pusher("r2c2", "E", 1), element("sand", "r2c3", dir="N"), pusher("r4c2", "E", 1),
                element("sand", "r4c3", dir="S")]
    p = play(elements, [robot("Twonky", "r2c2", "N"), robot("Hulk", "r4c2", "N")], {})
    assert p.at("Twonky") == "r2c3" and p.at("Hulk") == "r4c3"


def test_a_robot_pushed_onto_oil_slides_on_until_it_is_off_the_oil():
    elements = [pusher("r2c2", "E", 1), element("oil", "r2c3-r2c5")]
    p = play(elements, [robot("Twonky", "r2c2", "N")], {})
    assert p.at("Twonky") == "r2c6"
    # a robot on oil in the way has no grip: it is pushed ahead onto dry floor, where it holds the slide
    # (ruling 14.2, rules version 4; house rule pusher_slides_hold: these slides push nobody)
    p = play(elements, [robot("Twonky", "r2c2", "N"), robot("Hulk", "r2c5", "N")], {})
    assert p.at("Twonky") == "r2c5" and p.at("Hulk") == "r2c6"
    p = play(elements, [robot("Twonky", "r2c2", "N"), robot("Hulk", "r2c5", "N")], {},
             rules={"pusher_slides_hold": True})
    assert p.at("Twonky") == "r2c4" and p.at("Hulk") == "r2c5"


def test_a_hydraulic_push_ending_on_a_trapdoor_sets_it_off_and_one_passing_over_does_not():
    door = [element("hydraulic_trapdoor", "r2c3", carry=1, door=1),
            element("hydraulic_trapdoor", "r3c3", carry=1, door=1)]
    p = play([hydraulic("r2c1", "E", 1), *door, wall("r2c3", "E")],
             [robot("Twonky", "r2c1", "N"), robot("Sitter", "r3c3", "N")], {})
    assert p.at("Twonky") == "r2c3" and p.at("Sitter") is None
    p = play([hydraulic("r2c1", "E", 1), *door, wall("r2c5", "E")],
             [robot("Twonky", "r2c1", "N"), robot("Sitter", "r3c3", "N")], {})
    assert p.at("Twonky") == "r2c5" and p.at("Sitter") == "r3c3"


def test_a_hydraulic_push_onto_tilted_ground_slips_where_it_ends():
    elements = [hydraulic("r2c1", "E", 1), element("sand", "r2c4", dir="S"), wall("r2c4", "E")]
    p = play(elements, [robot("Twonky", "r2c1", "N")], {})
    assert p.at("Twonky") == "r1c4"


def test_a_robot_pushed_by_a_robot_onto_tilted_ground_stays():
    p = play([element("sand", "r2c3", dir="N")], [robot("Twonky", "r2c1", "E"), robot("Hulk", "r2c2", "N")],
             {"Twonky": ["FWD1 490"]})
    assert p.at("Hulk") == "r2c3"


def test_house_rule_pushed_not_affected_keeps_pushed_robots_where_the_pusher_left_them():
    rules = {"pushed_not_affected": True}
    p = play([pusher("r2c2", "E", 1), element("sand", "r2c3", dir="N")], [robot("Twonky", "r2c2", "W")], {},
             rules=rules)
    assert p.at("Twonky") == "r2c3"
    p = play([pusher("r2c2", "E", 1), element("oil", "r2c3-r2c5")], [robot("Twonky", "r2c2", "N")], {}, rules=rules)
    assert p.at("Twonky") == "r2c3"
