"""Scrambler: instead of the main laser, the target's next register is replaced by the deck's top card;
not a fused one, not in register 5.

Rulings cited (docs/rulings.md): 16.9.
"""

from tests.engine.scenarios import bot

from .helpers import holder, run

HULK = ["UTRN 10", "UTRN 20", "UTRN 30", "UTRN 40", "UTRN 50"]  # Hulk never faces Twonky


def test_the_targets_next_card_is_replaced_by_a_card_nobody_holds():
    out = run([holder("Twonky", "r3c3", "N", "Scrambler"), bot("Hulk", "r6c3", "E")], {"Hulk": HULK}, phases=2,
              orders={"Twonky": {"fire": {"1": "Scrambler"}}})
    (event,) = [e for e in out.events("Hulk", phase=1) if "scrambled" in e["text"]]
    assert event["text"].startswith("register 2 scrambled to ") and event["replaced"] == "UTRN 20"
    played = [e["card"] for e in out.events("Hulk", phase=2, step="robots") if "card" in e]
    assert played and played[0] == event["text"].rsplit(" to ", 1)[1] and played[0] not in HULK
    assert out.damage("Hulk") == 0


def test_a_fused_register_keeps_its_card():
    out = run([holder("Twonky", "r3c3", "N", "Scrambler"), bot("Hulk", "r6c3", "E", damage=6)], {"Hulk": HULK},
              phases=4, orders={"Twonky": {"fire": {"3": "Scrambler"}}})
    assert not [e for e in out.events("Hulk") if "scrambled" in e["text"]]  # register 4 is fused at 6 damage
    assert [e["card"] for e in out.events("Hulk", phase=4, step="robots")] == ["UTRN 40"]


def test_in_register_5_there_is_no_next_register_and_a_powered_down_scrambler_does_not_fire():
    out = run([holder("Twonky", "r3c3", "N", "Scrambler"), bot("Hulk", "r6c3", "E")], {"Hulk": HULK},
              orders={"Twonky": {"fire": {"5": "Scrambler"}}})
    assert not [e for e in out.events("Hulk") if "scrambled" in e["text"]]
    out = run([holder("Twonky", "r3c3", "N", "Scrambler", powered_down=True), bot("Hulk", "r6c3", "E")],
              {"Hulk": HULK}, phases=2, orders={"Twonky": {"fire": {"1": "Scrambler"}}})
    assert [e["card"] for e in out.events("Hulk", phase=2, step="robots")] == ["UTRN 20"]


def test_a_virtual_robot_is_not_hit_and_keeps_its_program():
    out = run([holder("Twonky", "r3c3", "N", "Scrambler"), bot("Hulk", "r6c3", "E", virtual=True)], {"Hulk": HULK},
              phases=2, orders={"Twonky": {"fire": {"1": "Scrambler"}}})
    assert [e["card"] for e in out.events("Hulk", phase=2, step="robots")] == ["UTRN 20"]


# -- rules version 3 (issue 33): "instead of the main laser" means the main laser fires when the option cannot
def test_a_standing_fire_all_scrambler_fires_the_main_laser_in_register_5_and_says_why():
    out = run([holder("Twonky", "r3c3", "N", "Scrambler"), bot("Hulk", "r6c3", "E")], {"Hulk": HULK},
              standing={"Twonky": {"fire": {"5": "Scrambler"}}})
    assert [e["phase"] for e in out.hits("Hulk")] == [1, 2, 3, 4, 5]  # register 5 too: the main laser
    (decision,) = [d for d in out.doc["decisions"] if d["subject"] == "fire" and d.get("register") == 5]
    assert decision["source"] == "standing" and decision["note"].endswith(": the main laser fires")
    assert "register 5" in decision["note"]


def test_a_fused_next_register_cannot_be_scrambled_so_the_main_laser_fires():
    out = run([holder("Twonky", "r3c3", "N", "Scrambler"), bot("Hulk", "r6c3", "E", damage=6)], {"Hulk": HULK},
              phases=3, orders={"Twonky": {"fire": {"3": "Scrambler"}}})
    assert [e["phase"] for e in out.hits("Hulk")] == [1, 2, 3]  # register 3 too: the main laser


def test_house_rule_weapon_or_nothing_loses_the_main_laser():
    out = run([holder("Twonky", "r3c3", "N", "Scrambler"), bot("Hulk", "r6c3", "E")], {"Hulk": HULK},
              orders={"Twonky": {"fire": {"5": "Scrambler"}}}, rules={"weapon_or_nothing": True})
    assert [e["phase"] for e in out.hits("Hulk")] == [1, 2, 3, 4]
