"""Ablative Coat: takes the next 3 points of damage in the robot's place, then is discarded.

Rulings cited (docs/rulings.md): 16.12.
"""

from tests.engine.scenarios import bot, laser, pit

from .helpers import holder, run


def test_the_coat_takes_three_points_then_goes_under_the_deck_and_the_fourth_lands():
    out = run([holder("Twonky", "r3c3", "E", "Ablative Coat")], elements=[laser("r3c6", "W", 2)], phases=2,
              option_deck=[])
    assert out.damage("Twonky") == 1
    assert out.texts("Twonky", 1, step="lasers")[-1] == "Ablative Coat stops 2 damage"
    assert "option Ablative Coat used up" in out.texts("Twonky", 2)
    assert out.doc["option_deck"] == ["Ablative Coat"] and out.robot("Twonky")["options"] == []


def test_what_the_coat_has_taken_is_kept_across_turns():
    out = run([holder("Twonky", "r3c3", "E", "Ablative Coat", option_data={"Ablative Coat": {"absorbed": 2}})],
              elements=[laser("r3c6", "W", 2)], phases=1)
    assert out.damage("Twonky") == 1 and out.robot("Twonky")["options"] == []


def test_it_covers_a_powered_down_or_virtual_robot_but_not_a_fall_into_a_pit():
    out = run([holder("Twonky", "r3c3", "E", "Ablative Coat", powered_down=True)], elements=[laser("r3c6", "W")],
              phases=1)
    assert out.damage("Twonky") == 0
    out = run([holder("Twonky", "r3c3", "E", "Ablative Coat", virtual=True)], elements=[laser("r3c6", "W")], phases=1)
    assert out.damage("Twonky") == 0  # board lasers hit virtual robots
    out = run([holder("Twonky", "r3c3", "N", "Ablative Coat")], {"Twonky": ["FWD1 490"]}, [pit("r4c3")], phases=1)
    assert out.at("Twonky") is None and "option Ablative Coat lost" in out.texts("Twonky")


def test_a_robot_laser_hit_is_taken_too():
    out = run([holder("Twonky", "r3c3", "N", "Ablative Coat"), bot("Hulk", "r6c3", "S")], phases=1)
    assert (out.damage("Twonky"), out.damage("Hulk")) == (0, 1)
