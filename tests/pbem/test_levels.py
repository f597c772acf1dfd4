"""Levels and ledges: no climbing a ledge, 2 damage for dropping over one.

Rulings cited (docs/rulings.md): 28.
"""

from .conftest import play, robot, rows

UPPER = rows("level", 5, 8, height=1)


def test_a_robot_cannot_drive_up_a_ledge():
    p = play(UPPER, [robot("Twonky", "r4c4", "N")], {"Twonky": ["FWD1 490"]})
    assert p.at("Twonky") == "r4c4"
    assert p.texts("Twonky", 1)[0] == "obstruction encountered"


def test_driving_off_a_ledge_lands_with_two_damage():
    p = play(UPPER, [robot("Twonky", "r5c4", "S")], {"Twonky": ["FWD1 490"]})
    assert p.at("Twonky") == "r4c4"
    assert p.damage("Twonky") == 2
    assert "-2 HP" in p.texts("Twonky", 1)


def test_a_move_three_over_a_ledge_pays_once_and_goes_on():
    p = play(UPPER, [robot("Twonky", "r6c4", "S")], {"Twonky": ["FWD3 790"]})
    assert p.at("Twonky") == "r3c4"
    assert p.damage("Twonky") == 2


def test_a_drop_of_two_levels_still_costs_two_damage():
    elements = [*rows("level", 5, 8, height=2)]
    p = play(elements, [robot("Twonky", "r5c4", "S")], {"Twonky": ["FWD1 490"]})
    assert p.damage("Twonky") == 2


def test_moving_along_the_upper_level_costs_nothing():
    p = play(UPPER, [robot("Twonky", "r6c2", "E")], {"Twonky": ["FWD3 790"]})
    assert p.at("Twonky") == "r6c5"
    assert p.damage("Twonky") == 0


def test_backing_up_a_ledge_is_blocked_too():
    p = play(UPPER, [robot("Twonky", "r4c4", "S")], {"Twonky": ["RVS1 430"]})
    assert p.at("Twonky") == "r4c4"
    assert "obstruction encountered" in p.texts("Twonky", 1)


def test_a_robot_pushed_off_a_ledge_takes_the_two_damage():
    p = play(UPPER, [robot("Pusher", "r6c4", "S"), robot("Victim", "r5c4", "N")], {"Pusher": ["FWD1 490"]})
    assert p.at("Victim") == "r4c4"
    assert p.texts("Victim", 1)[:2] == ["pushed to r4c4", "-2 HP"]
    assert p.damage("Victim") == 3  # the ledge, then the pusher's laser from the square above
    assert p.at("Pusher") == "r5c4"
    assert "-2 HP" not in p.texts("Pusher", 1)  # it did not drop: it moved along the upper level


def test_a_robot_cannot_push_another_up_a_ledge():
    p = play(UPPER, [robot("Pusher", "r3c4", "N"), robot("Victim", "r4c4", "N")], {"Pusher": ["FWD1 490"]})
    assert p.at("Victim") == "r4c4"
    assert p.at("Pusher") == "r3c4"


def test_a_belt_carries_a_robot_off_a_ledge_with_damage():
    elements = [*UPPER, {"kind": "belt", "at": "r5c4", "dir": "S"}]
    p = play(elements, [robot("Twonky", "r5c4", "E")], {})
    assert p.at("Twonky") == "r4c4"
    assert p.damage("Twonky") == 2


def test_a_belt_cannot_carry_a_robot_up_a_ledge():
    elements = [*UPPER, {"kind": "belt", "at": "r4c4", "dir": "N"}]
    p = play(elements, [robot("Twonky", "r4c4", "E")], {})
    assert p.at("Twonky") == "r4c4"


def test_a_ledge_fall_at_eight_damage_destroys():
    p = play(UPPER, [robot("Twonky", "r5c4", "S", damage=8)], {"Twonky": ["FWD1 490"]})
    assert p.at("Twonky") is None
    assert p.robots["Twonky"]["destroyed"]
    assert p.texts("Twonky", 1)[-1] == "destroyed"


def test_lasers_ignore_levels():
    p = play(UPPER, [robot("Low", "r2c4", "N"), robot("High", "r7c4", "S")], {})
    assert p.damage("High") == 1 and p.damage("Low") == 1


def test_a_ledge_into_a_pit_below_destroys():
    elements = [*UPPER, {"kind": "pit", "at": "r4c4"}]
    p = play(elements, [robot("Twonky", "r5c4", "S")], {"Twonky": ["FWD1 490"]})
    assert p.at("Twonky") is None
