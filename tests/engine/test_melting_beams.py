"""Melting beams: 1 damage entering or turning in the beam and 1 more standing in it when the melting beams
act; each point locks the current register, whose card stays there through the next turn.

Rulings cited (docs/rulings.md): 13.25.
"""

from referee.engine import Robot, deal_turn, parse_card, resolve_turn
from referee.engine.state import HELD

from .scenarios import element, engine_board, laser, play, robot

BEAM = element("melting_beam", "r3c4")


def test_entering_costs_one_and_standing_at_the_end_of_the_phase_one_more_both_in_the_register_moved():
    p = play([BEAM], [robot("Twonky", "r2c4", "N")], {"Twonky": ["FWD1 490"]})
    assert [e["step"] for e in p.hits("Twonky")] == ["robots", "melting beams"]
    assert "register 1 melted" in p.texts("Twonky", 1)
    assert p.robot("Twonky")["locked"] == {"1": "FWD1 490"}


def test_passing_through_costs_one_and_turning_in_it_costs_one():
    p = play([BEAM], [robot("Twonky", "r2c4", "N")], {"Twonky": ["FWD2 670"]})
    assert p.damage("Twonky") == 1 and p.at("Twonky") == "r4c4"
    assert p.robot("Twonky")["locked"] == {"1": "FWD2 670"}
    p = play([BEAM], [robot("Twonky", "r3c4", "N")], {"Twonky": ["RT90 80"]})
    assert [e["step"] for e in p.hits("Twonky")] == ["robots", "melting beams"]  # turning, then standing


def test_it_acts_after_radiation_and_before_the_flamers():
    elements = [BEAM, laser("r3c1", "E"), element("flamer", "r3c4", phases=[1])]
    p = play(elements, [robot("Twonky", "r3c4", "N")], {})
    assert [e["step"] for e in p.hits("Twonky")] == ["lasers", "melting beams", "flamers"]


def test_the_melted_register_stays_locked_through_the_next_turn_then_is_released():
    board = engine_board([BEAM])
    program = [parse_card(c) for c in ("FWD1 490", "FWD1 500", "UTRN 20", "UTRN 30", "UTRN 40")]
    first = resolve_turn(board, [Robot("Twonky", (2, 4), 0)], {"Twonky": program})
    melted = first.robots[0]
    assert melted.pos == (4, 4) and melted.damage == 2  # in the beam for phase 1 only
    assert melted.locked == {1: program[0]}
    assert melted.option_data[HELD] == {"1": 1}  # held through one more turn
    deal = deal_turn([melted], "next")
    assert deal.locked["Twonky"] == {1: program[0]}  # dealt round: it stays in register 1
    assert program[0] not in deal.hands["Twonky"] and len(deal.hands["Twonky"]) == 7
    second = resolve_turn(board, [melted], {"Twonky": [program[0]]})
    after = second.robots[0]
    assert second.played["Twonky"][0] == program[0]
    assert after.locked == {} and HELD not in after.option_data
    assert any(e.text == "register 1 released" for e in second.events)
