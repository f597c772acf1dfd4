"""Reset sites: touched like a repair site (archive), no repair; at the end of phases 1-4 a robot on one may
exchange its next register's card for one nobody holds (decision ``reset exchange``).

Rulings cited (docs/rulings.md): 15.16.
"""

from referee.engine import Robot, parse_card, resolve_turn
from referee.engine.decisions import Answers, DecisionKey

from .scenarios import element, engine_board

SITE = element("reset_site", "r3c4")
BOARD = engine_board([SITE])


def cards(*texts):
    return [parse_card(t) for t in texts]


def exchange(register, card):
    return Answers(orders={"Twonky": {DecisionKey("reset exchange", register=register): card}})


def test_the_card_chosen_replaces_the_next_register_and_is_executed():
    program = cards("FWD1 490", "UTRN 10", "UTRN 20", "UTRN 30", "UTRN 40")
    result = resolve_turn(BOARD, [Robot("Twonky", (2, 4), 0)], {"Twonky": program}, answers=exchange(2, "FWD2 700"))
    assert result.played["Twonky"][1] == parse_card("FWD2 700")
    assert result.robots[0].pos == (5, 4)  # moved onto the site in 1, then two north in 2
    assert result.robots[0].archive == (3, 4)
    texts = [e.text for e in result.events if e.robot == "Twonky" and e.phase == 1]
    assert "register 2 exchanged for FWD2 700" in texts


def test_no_answer_a_held_card_or_a_fused_register_means_no_exchange():
    program = cards("UTRN 10", "UTRN 20", "UTRN 30", "UTRN 40", "UTRN 50")
    plain = resolve_turn(BOARD, [Robot("Twonky", (3, 4), 0)], {"Twonky": program})
    assert plain.played["Twonky"] == program
    asked = [(d.key.register, d.answer) for d in plain.decisions if d.key.subject == "reset exchange"]
    assert asked == [(2, None), (3, None), (4, None), (5, None)]  # asked after phases 1-4, for the next register
    held = resolve_turn(BOARD, [Robot("Twonky", (3, 4), 0)], {"Twonky": program}, answers=exchange(3, "UTRN 40"))
    assert held.played["Twonky"] == program
    assert [d.note for d in held.decisions if d.key.register == 3] == ["UTRN 40 is held this turn: no exchange"]
    fused = Robot("Twonky", (3, 4), 0, damage=5, locked={5: program[4]})
    locked = resolve_turn(BOARD, [fused], {"Twonky": program}, answers=exchange(5, "FWD3 800"))
    assert locked.played["Twonky"] == program
    assert [d.note for d in locked.decisions if d.key.register == 5] == ["register 5 is fused: no exchange"]


def test_the_card_given_up_goes_back_among_the_cards_nobody_holds_and_no_repair():
    program = cards("UTRN 10", "FWD1 490", "UTRN 30", "UTRN 40", "UTRN 50")
    answers = Answers(orders={"Twonky": {DecisionKey("reset exchange", register=2): "LF90 70",
                                         DecisionKey("reset exchange", register=3): "FWD1 490"}})
    walled = engine_board([SITE, element("wall", "r3c4", sides=["E"])])  # U-turn, left: the Move 1 east is stopped
    result = resolve_turn(walled, [Robot("Twonky", (3, 4), 0, damage=2)], {"Twonky": program}, answers=answers)
    assert result.played["Twonky"][1:3] == cards("LF90 70", "FWD1 490")
    assert result.robots[0].pos == (3, 4)
    assert result.robots[0].damage == 2
    chosen = [d for d in result.decisions if d.key.subject == "reset choose"]
    assert [(d.robot, d.answer) for d in chosen] == [("Twonky", "none")]
