"""Deep water: as water, and every card executed in it or moving through it costs 1 damage; 1 more when lasers fire.

Rulings cited (docs/rulings.md): 13.5.
"""

from .scenarios import belt, element, laser, play, robot

DEEP = element("deep_water", "r3c4")


def test_a_move_2_from_deep_water_loses_a_square_and_costs_one():
    p = play([DEEP], [robot("Twonky", "r3c4", "N")], {"Twonky": ["FWD2 670"]})
    assert p.at("Twonky") == "r4c4"
    assert p.damage("Twonky") == 1  # it has left the deep water before lasers fire


def test_a_move_1_in_deep_water_goes_nowhere_and_still_costs_one_then_one_more():
    p = play([DEEP], [robot("Twonky", "r3c4", "N")], {"Twonky": ["FWD1 490"]})
    assert p.at("Twonky") == "r3c4"
    assert [e["step"] for e in p.hits("Twonky")] == ["robots", "deep water"]


def test_turning_in_deep_water_costs_one():
    p = play([DEEP], [robot("Twonky", "r3c4", "N")], {"Twonky": ["RT90 80"]})
    assert p.facing("Twonky") == "E"
    assert p.damage("Twonky") == 2


def test_entering_deep_water_under_a_card_costs_one_and_one_more_when_lasers_fire():
    p = play([DEEP], [robot("Twonky", "r2c4", "N")], {"Twonky": ["FWD1 490"]})
    assert p.at("Twonky") == "r3c4"
    assert [e["step"] for e in p.hits("Twonky")] == ["robots", "deep water"]


def test_deep_water_hurts_after_the_board_lasers_and_a_belt_carrying_a_robot_in():
    p = play([DEEP, belt("r2c4", "N"), laser("r3c1", "E")], [robot("Twonky", "r2c4", "E")], {})
    assert p.at("Twonky") == "r3c4"
    assert [e["step"] for e in p.hits("Twonky")] == ["lasers", "deep water"]


def test_a_powered_down_robot_in_deep_water_takes_the_laser_step_damage_only():
    p = play([DEEP], [robot("Sleepy", "r3c4", "N", powered_down=True)], {}, phases=2)
    assert p.damage("Sleepy") == 2


def test_in_the_laser_steps_flamers_then_lava_then_deep_water():
    """A robot in deep water under an active flamer, beside an erupting lava pit: the timing sequence's order."""
    elements = [DEEP, element("flamer", "r3c4", phases=[1]), element("lava", "r3c5", phases=[1])]
    p = play(elements, [robot("Twonky", "r3c4", "N")], {})
    assert [e["step"] for e in p.hits("Twonky", phase=1)] == ["flamers", "lava", "deep water"]


# -- rules version 3 (issue 33): "robots standing in or moving through deep water take 1 point of damage"
def test_a_move_2_from_dry_floor_through_deep_water_costs_one():
    """Timing text, robots move 8: robots rotating/moving in or through deep water take one point of damage."""
    p = play([DEEP], [robot("Twonky", "r2c4", "N")], {"Twonky": ["FWD2 670"]})
    assert p.at("Twonky") == "r4c4"
    assert [e["step"] for e in p.hits("Twonky")] == ["robots"]


def test_a_move_3_through_two_squares_of_deep_water_costs_one_for_the_card():
    p = play([DEEP, element("deep_water", "r4c4")], [robot("Twonky", "r2c4", "N")], {"Twonky": ["FWD3 800"]})
    assert p.at("Twonky") == "r5c4"
    assert p.damage("Twonky") == 1


def test_a_card_from_deep_water_into_more_deep_water_costs_one_then_the_laser_step_one():
    p = play([DEEP, element("deep_water", "r4c4")], [robot("Twonky", "r3c4", "N")], {"Twonky": ["FWD2 670"]})
    assert p.at("Twonky") == "r4c4"
    assert [e["step"] for e in p.hits("Twonky")] == ["robots", "deep water"]


def test_a_robot_pushed_through_deep_water_by_another_robots_card_pays_nothing_then():
    p = play([DEEP], [robot("Pusher", "r1c4", "N"), robot("Twonky", "r2c4", "N")], {"Pusher": ["FWD3 800"]})
    assert p.at("Twonky") == "r5c4"
    assert p.hits("Twonky", step="robots") == []


def test_house_rule_deep_water_start_only_keeps_passing_through_free():
    p = play([DEEP], [robot("Twonky", "r2c4", "N")], {"Twonky": ["FWD2 670"]},
             rules={"deep_water_start_only": True})
    assert p.at("Twonky") == "r4c4"
    assert p.damage("Twonky") == 0
