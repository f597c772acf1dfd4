"""Molten ore flows carry robots one square after the currents, and burn a robot in them when lasers fire.

Rulings cited (docs/rulings.md): 13.13.
"""

from .scenarios import belt, element, play, robot

ORE = [element("molten_ore", "r3c3-r3c5", dir="E")]


def test_the_flow_carries_a_robot_one_square_and_burns_it():
    p = play(ORE, [robot("Twonky", "r3c3", "N")], {})
    assert p.at("Twonky") == "r3c4" and p.facing("Twonky") == "N"
    assert [e["step"] for e in p.hits("Twonky")] == ["molten ore"]


def test_carried_out_of_the_flow_a_robot_is_not_burnt():
    p = play(ORE, [robot("Twonky", "r3c5", "N")], {})
    assert p.at("Twonky") == "r3c6" and p.damage("Twonky") == 0


def test_ore_moves_after_the_belts_and_currents():
    elements = [*ORE, belt("r2c3", "N"), element("current", "r4c2", dir="S")]
    robots = [robot("Belted", "r2c3", "E"), robot("Swimmer", "r4c2", "W")]
    p = play(elements, robots, {})
    # the belt brings Belted onto the ore, the ore carries it on; the current drops Swimmer into r3c2 (dry)
    assert p.at("Belted") == "r3c4"
    order = [e["robot"] for e in p.events() if e["text"].startswith(("conveyed", "carried"))]
    assert order == ["Belted", "Swimmer", "Belted"]


def test_ore_does_not_slow_a_card_like_water():
    p = play(ORE, [robot("Twonky", "r3c3", "N")], {"Twonky": ["FWD1 490"]})
    assert p.at("Twonky") == "r4c3" and p.damage("Twonky") == 0
