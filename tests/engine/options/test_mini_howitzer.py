"""Mini Howitzer: instead of the main laser, 1 damage and the target pushed one square away (not through
walls); 5 shots, then discarded.

Rulings cited (docs/rulings.md): 16.8.
"""

from tests.engine.scenarios import bot, pit, wall

from .helpers import holder, run

FIRE_ALL = {"Twonky": {"fire": {str(r): "Mini Howitzer" for r in range(1, 6)}}}


def test_the_target_takes_1_damage_and_is_pushed_one_square_away():
    out = run([holder("Twonky", "r3c3", "N", "Mini Howitzer"), bot("Hulk", "r6c3", "E")], phases=1, orders=FIRE_ALL)
    assert (out.damage("Hulk"), out.at("Hulk")) == (1, "r7c3")
    assert out.robot("Twonky")["option_data"] == {"Mini Howitzer": {"shots": 1}}


def test_a_wall_stops_the_push_and_a_pit_swallows_the_target():
    out = run([holder("Twonky", "r3c3", "N", "Mini Howitzer"), bot("Hulk", "r6c3", "E")], {}, [wall("r6c3", "N")],
              phases=1, orders=FIRE_ALL)
    assert (out.damage("Hulk"), out.at("Hulk")) == (1, "r6c3")
    out = run([holder("Twonky", "r3c3", "N", "Mini Howitzer"), bot("Hulk", "r6c3", "E")], {}, [pit("r7c3")],
              phases=1, orders=FIRE_ALL)
    assert out.at("Hulk") is None


def test_after_the_fifth_shot_the_howitzer_is_used_up_and_goes_under_the_deck():
    out = run([holder("Twonky", "r3c3", "N", "Mini Howitzer", option_data={"Mini Howitzer": {"shots": 3}}),
               bot("Hulk", "r5c3", "E")], phases=3, orders=FIRE_ALL, option_deck=["Brakes"])
    assert out.robot("Twonky")["options"] == [] and out.doc["option_deck"] == ["Brakes", "Mini Howitzer"]
    assert "option Mini Howitzer used up" in out.texts("Twonky", 2)
    assert out.damage("Hulk") == 3  # two howitzer shots, then the main laser in register 3


def test_no_target_no_shot_used_and_a_powered_down_robot_does_not_fire():
    out = run([holder("Twonky", "r3c3", "N", "Mini Howitzer")], phases=1, orders=FIRE_ALL)
    assert out.robot("Twonky").get("option_data") is None
    out = run([holder("Twonky", "r3c3", "N", "Mini Howitzer", powered_down=True), bot("Hulk", "r6c3", "E")],
              phases=1, orders=FIRE_ALL)
    assert (out.damage("Hulk"), out.at("Hulk")) == (0, "r6c3")


def test_a_virtual_robot_does_not_fire_and_the_last_point_destroys():
    out = run([holder("Twonky", "r3c3", "N", "Mini Howitzer", virtual=True), bot("Hulk", "r6c3", "E")], phases=1,
              orders=FIRE_ALL)
    assert (out.damage("Hulk"), out.at("Hulk")) == (0, "r6c3")
    out = run([holder("Twonky", "r3c3", "N", "Mini Howitzer"), bot("Hulk", "r6c3", "E", damage=9)], phases=1,
              orders=FIRE_ALL)
    assert out.at("Hulk") is None and out.events("Hulk", text="destroyed")[0]["cause"] == "laser"
