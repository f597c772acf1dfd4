"""Golden (hyper-speed) belts: three squares a register phase, one in each belt sub-step: the first before
every other belt, the second with the express belts' first, the third with all belts.

Rulings cited (docs/rulings.md): 15.1.
"""

from __future__ import annotations

from .scenarios import belt, element, express, laser, play, pusher, robot


def golden(at: str, direction: str) -> dict[str, str]:
    return element("hyper", at, dir=direction)


LANE = [golden(f"r{r}c3", "N") for r in range(1, 9)]


def test_a_golden_belt_carries_a_robot_three_squares():
    p = play(LANE, [robot("Twonky", "r2c3", "E")], {})
    assert p.at("Twonky") == "r5c3"
    assert p.facing("Twonky") == "E"
    assert [e["step"] for e in p.events("Twonky") if e["text"].startswith("conveyed")] == [
        "golden belts", "express", "belts"]


def test_a_robot_carried_off_a_golden_belt_goes_on_the_belt_it_lands_on_in_the_later_sub_steps():
    """Golden at r2c3 (north) onto an express lane east: the express carries it in the two later sub-steps,
    and it is turned as belts turn robots carried onto them at a right angle."""
    elements = [golden("r2c3", "N"), *(express(f"r3c{c}", "E") for c in range(3, 9))]
    p = play(elements, [robot("Twonky", "r2c3", "N")], {})
    assert p.at("Twonky") == "r3c5"
    assert p.facing("Twonky") == "E"


def test_a_golden_belt_does_not_push_a_robot_standing_in_its_way():
    p = play(LANE[:4], [robot("Twonky", "r2c3", "N"), robot("Hulk", "r5c3", "N")], {})
    assert p.at("Twonky") == "r4c3"  # two squares, then Hulk (off the belt) is in the way
    assert p.at("Hulk") == "r5c3"


def test_a_golden_belt_and_an_ordinary_belt_meet_in_the_last_sub_step_only():
    """Both aim at r5c3 in the third sub-step: the robot moving along the lane there goes, the other stays."""
    elements = [*LANE[:4], golden("r5c3", "N"), belt("r5c4", "W")]
    p = play(elements, [robot("Twonky", "r2c3", "N"), robot("Hulk", "r5c4", "N")], {})
    assert p.at("Twonky") == "r5c3"
    assert p.at("Hulk") == "r5c4"


def test_a_virtual_robot_rides_through_a_real_one():
    p = play(LANE, [robot("Ghost", "r2c3", "N", virtual=True), robot("Hulk", "r4c3", "E")], {})
    assert p.at("Ghost") == "r5c3"


def test_a_robot_pushed_onto_a_golden_belt_rides_it_and_meets_the_lasers_where_it_ends():
    """Pushers act after the belts: pushed on in phase 1, it rides three squares in phase 2, into a beam."""
    elements = [*LANE, pusher("r3c2", "E", 1), laser("r6c1", "E")]
    p = play(elements, [robot("Twonky", "r3c2", "S")], {}, phases=2)
    assert p.texts("Twonky", 1, step="pushers") == ["pushed to r3c3"]
    assert p.at("Twonky") == "r6c3"
    assert p.damage("Twonky") == 1


def test_a_golden_belt_carries_a_robot_off_the_board():
    p = play(LANE, [robot("Twonky", "r7c3", "E")], {})
    assert p.at("Twonky") is None
    assert p.texts("Twonky", step="express")[-1] == "destroyed"


def test_a_powered_down_robot_rides_a_golden_belt_too():
    p = play(LANE, [robot("Sleepy", "r2c3", "E", powered_down=True)], {}, phases=1)
    assert p.at("Sleepy") == "r5c3"
