"""Recompile: once a turn, after the hand is dealt, the whole hand may be redealt for 1 damage (the store
deals the second hand; the engine charges the damage when the turn starts).

Rulings cited (docs/rulings.md): 16.17.
"""

from tests.engine.scenarios import laser

from .helpers import decisions, holder, run


def test_a_recompiled_hand_costs_1_damage_at_the_start_of_the_turn():
    out = run([holder("Twonky", "r3c3", "N", "Recompile")], phases=1, orders={"Twonky": {"recompile": True}})
    assert out.damage("Twonky") == 1
    assert out.texts("Twonky", "start") == ["uses Recompile", "-1 HP"]
    assert out.events("Twonky", phase="start")[1]["cause"] == "recompile"


def test_without_the_order_nothing_is_charged_and_a_powered_down_robot_is_not_asked():
    out = run([holder("Twonky", "r3c3", "N", "Recompile")], phases=1)
    assert out.damage("Twonky") == 0 and [d["answer"] for d in decisions(out, "recompile")] == [False]
    out = run([holder("Twonky", "r3c3", "N", "Recompile", powered_down=True, damage=3)], phases=1,
              orders={"Twonky": {"recompile": True}})
    assert out.damage("Twonky") == 0 and decisions(out, "recompile") == []


def test_the_recompile_damage_can_be_what_fuses_a_register_or_is_sacrificed_for():
    out = run([holder("Twonky", "r3c3", "N", "Recompile", damage=4)], elements=[laser("r9c9", "N")], phases=1,
              orders={"Twonky": {"recompile": True}}, standing={"Twonky": {"sacrifice_at": 0}})
    assert out.damage("Twonky") == 5 and "register 5 fused" in out.texts("Twonky", "start")
    out = run([holder("Twonky", "r3c3", "N", "Recompile", damage=4)], phases=1, orders={"Twonky": {"recompile": True}})
    assert out.damage("Twonky") == 4 and out.robot("Twonky")["options"] == []  # HP 6: the card is given up


def test_a_virtual_robot_is_charged_too_and_the_charge_can_destroy():
    out = run([holder("Twonky", "r3c3", "N", "Recompile", virtual=True)], phases=1,
              orders={"Twonky": {"recompile": True}})
    assert out.damage("Twonky") == 1
    out = run([holder("Twonky", "r3c3", "N", "Recompile", damage=9)], phases=1, orders={"Twonky": {"recompile": True}},
              standing={"Twonky": {"sacrifice_at": 0}}, option_deck=[])
    assert out.at("Twonky") is None and out.doc["option_deck"] == ["Recompile"]
