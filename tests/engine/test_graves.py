"""Graves: a robot on one takes 1 damage in every phase when lasers fire, after the lava.

Rulings cited (docs/rulings.md): 13.12.
"""

from .scenarios import element, laser, play, robot

GRAVE = element("grave", "r3c4")


def test_ending_a_move_on_a_grave_costs_one_each_phase():
    p = play([GRAVE], [robot("Twonky", "r2c4", "N")], {"Twonky": ["FWD1 490", "UTRN 10"]}, phases=2)
    assert [(e["phase"], e["step"]) for e in p.hits("Twonky")] == [(1, "graves"), (2, "graves")]


def test_passing_over_a_grave_is_safe():
    p = play([GRAVE], [robot("Twonky", "r2c4", "N")], {"Twonky": ["FWD2 670"]})
    assert p.damage("Twonky") == 0


def test_grave_damage_follows_board_lasers_and_lava():
    elements = [GRAVE, laser("r3c1", "E"), element("lava", "r3c5", phases=[1])]
    p = play(elements, [robot("Twonky", "r3c4", "N")], {})
    assert [e["step"] for e in p.hits("Twonky")] == ["lasers", "lava", "graves"]


def test_virtual_robots_on_a_grave_are_hurt_too():
    # first_turn=False: a robot just placed would raise a ghost (test_ghosts.py)
    p = play([GRAVE], [robot("Ghosty", "r3c4", "N", virtual=True, first_turn=False)], {})
    assert p.damage("Ghosty") == 1
