"""Fire Control: a main-laser hit may destroy one of the target's options or lock one of its registers
for the rest of the turn instead of dealing damage.

Rulings cited (docs/rulings.md): 16.11.
"""

from tests.engine.scenarios import bot

from .helpers import decisions, holder, run

HULK = ["RT90 80", "RT90 100", "RT90 120", "RT90 140", "RT90 160"]


def test_instead_of_damage_the_targets_newest_option_goes_under_the_deck():
    out = run([holder("Twonky", "r3c3", "N", "Fire Control"), holder("Hulk", "r6c3", "E", "Brakes", "Shield")],
              phases=1, orders={"Twonky": {"fire control": {"1": "option"}}}, option_deck=[])
    assert (out.damage("Hulk"), out.robot("Hulk")["options"]) == (0, ["Brakes"])
    assert out.doc["option_deck"] == ["Shield"] and "option Shield lost" in out.texts("Hulk", 1)


def test_house_rule_sacrifice_order_lets_the_targets_player_choose_and_no_option_means_damage():
    out = run([holder("Twonky", "r3c3", "N", "Fire Control"), holder("Hulk", "r6c3", "E", "Brakes", "Shield")],
              phases=1, standing={"Twonky": {"options": {"fire control": "option"}},
                                  "Hulk": {"options": {"sacrifice order": ["brakes"]}}},
              rules={"fire_control": "sacrifice order"})
    assert out.robot("Hulk")["options"] == ["Shield"]
    out = run([holder("Twonky", "r3c3", "N", "Fire Control"), bot("Hulk", "r6c3", "E")], phases=1,
              orders={"Twonky": {"fire control": {"1": "option"}}})
    assert out.damage("Hulk") == 1


def test_locking_a_register_holds_the_next_register_for_the_rest_of_the_turn():
    out = run([holder("Twonky", "r3c3", "N", "Fire Control"), bot("Hulk", "r6c3", "E")], {"Hulk": HULK}, phases=2,
              orders={"Twonky": {"fire control": {"1": "register", "2": "damage"}}})
    assert "register 2 locked" in out.texts("Hulk", 1)
    assert out.robot("Hulk")["locked"] == {"2": "RT90 100"} and out.damage("Hulk") == 1
    assert [d["answer"] for d in decisions(out, "fire control")] == ["register", "damage"]


def test_the_lock_is_released_at_the_end_of_the_turn_and_in_register_5_the_hit_deals_damage():
    out = run([holder("Twonky", "r3c3", "N", "Fire Control"), bot("Hulk", "r6c3", "E")], {"Hulk": HULK},
              standing={"Twonky": {"options": {"fire control": "register"}}})
    assert out.robot("Hulk")["locked"] == {} and "register 5 released" in out.texts("Hulk", "end")
    assert out.damage("Hulk") == 1  # register 5: nothing left to lock


def test_a_powered_down_robot_does_not_fire_and_a_virtual_target_is_not_hit():
    out = run([holder("Twonky", "r3c3", "N", "Fire Control", powered_down=True), holder("Hulk", "r6c3", "E", "Brakes")],
              phases=1, orders={"Twonky": {"fire control": {"1": "option"}}})
    assert out.robot("Hulk")["options"] == ["Brakes"] and decisions(out, "fire control") == []
    out = run([holder("Twonky", "r3c3", "N", "Fire Control"), holder("Hulk", "r6c3", "E", "Brakes", virtual=True)],
              phases=1, orders={"Twonky": {"fire control": {"1": "option"}}})
    assert out.robot("Hulk")["options"] == ["Brakes"]
