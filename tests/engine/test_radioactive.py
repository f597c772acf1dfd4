"""Radioactive waste: 1 damage to a robot on it in every phase, in the last laser step.

Rulings cited (docs/rulings.md): 13.18, 16.2.
"""

from referee.boards.scenario import simulate

from .scenarios import Outcome, element, laser, play, robot, scenario

WASTE = element("radioactive_waste", "r3c4")


def test_standing_on_radioactive_waste_costs_one_every_phase():
    p = play([WASTE], [robot("Twonky", "r3c4", "N")], {}, phases=3)
    assert [e["phase"] for e in p.hits("Twonky")] == [1, 2, 3]
    assert {e["cause"] for e in p.hits("Twonky")} == {"radioactive waste"}


def test_it_comes_last_after_lasers_radiation_and_graves():
    elements = [WASTE, laser("r3c1", "E"), element("radiation", "r3c4"), element("grave", "r3c4")]
    walk_in = ["UTRN 10", "UTRN 20", "UTRN 30", "UTRN 40", "FWD1 490"]  # onto it in phase 5
    p = play(elements, [robot("Twonky", "r2c4", "N")], {"Twonky": walk_in}, phases=5)
    assert [e["step"] for e in p.hits("Twonky", phase=5)] == ["lasers", "radiation", "graves", "radioactive waste"]


def test_passing_over_waste_is_safe_and_virtual_robots_on_it_are_hurt():
    p = play([WASTE], [robot("Twonky", "r2c4", "N")], {"Twonky": ["FWD2 670"]})
    assert p.damage("Twonky") == 0
    p = play([WASTE], [robot("Ghosty", "r3c4", "N", virtual=True)], {})
    assert p.damage("Ghosty") == 1


def test_a_powered_down_robot_on_waste_is_hurt_after_its_repair():
    """Powering down repairs before anything moves; the waste hurts it again in each phase."""
    p = play([WASTE], [robot("Sleepy", "r3c4", "N", damage=4, powered_down=True)], {}, phases=2)
    assert p.damage("Sleepy") == 2


# -- ruling 16.2 (rules version 4): "robots on radioactive waste may draw an option card", in every register
DECK = ["Brakes", "Shield", "Recompile", "Gyroscopic Stabilizer", "Fourth Gear"]


def waste_turn(orders=None, rules=None, phases=3):
    doc = scenario([robot("Twonky", "r3c4", "N")], {"Twonky": ["UTRN 10", "UTRN 20", "UTRN 30", "UTRN 40",
                                                              "UTRN 50"]},
                   [WASTE], width=8, height=8, phases=phases, option_deck=list(DECK))
    if orders:
        doc["orders"] = {"Twonky": orders}
    if rules:
        doc["rules"] = rules
    return Outcome(simulate(doc))


def test_a_robot_on_radioactive_waste_may_draw_an_option_in_every_register_and_draws_unless_told_not_to():
    assert waste_turn().robot("Twonky")["options"] == ["Brakes", "Shield", "Recompile"]
    told = waste_turn({"radioactive waste": {"1": "none", "3": "none"}})
    assert told.robot("Twonky")["options"] == ["Brakes"]
    assert [d["answer"] for d in told.doc["decisions"] if d["subject"] == "radioactive waste"] == \
        ["none", "draw", "none"]


def test_house_rule_radioactive_once_keeps_version_3s_one_card_a_turn_without_asking():
    once = waste_turn(rules={"radioactive_once": True})
    assert once.robot("Twonky")["options"] == ["Brakes"]
    assert not [d for d in once.doc["decisions"] if d["subject"] == "radioactive waste"]
