"""The order language's option clauses: how players write them and what the engine is then told.

Rulings cited (docs/rulings.md): 16.m1, 16.m2, 16.m3, 16.m4, 16.m5, 16.m6.
"""

from __future__ import annotations

import random

import pytest

from referee.engine import parse_card
from referee.engine.option_orders import (
    ABORT_SWITCH,
    BRAKES,
    CIRCUIT_BREAKER,
    CONDITIONAL,
    CRAB_LEGS,
    DUAL_PROCESSOR,
    FIRE_CONTROL,
    FLYWHEEL,
    FOURTH_GEAR,
    GYROSCOPE,
    RECOMPILE,
    REVERSE_GEARS,
    SACRIFICE_ORDER,
)
from referee.engine.programs import ProgramError, check_program
from referee.orders import OrderContext, parse_orders
from referee.orders.replies import render_echo

HAND = [parse_card(c) for c in ("FWD1 500", "FWD2 670", "RT90 80", "LF90 90", "UTRN 50", "RVS1 430", "FWD3 800",
                                "FWD1 490", "RT90 100")]
PROGRAM = ["1: FWD1 500", "2: FWD2 670", "3: FWD3 800", "4: RVS1 430", "5: FWD1 490"]
ALL = ["brakes", "crab legs", "dual processor", "conditional program", "gyroscopic stabilizer", "pressor beam",
       "fire control", "abort switch", "flywheel", "fourth gear", "reverse gears", "circuit breaker", "recompile"]


def read(*lines: str, options=ALL, program=True):
    return parse_orders("\n".join([*(PROGRAM if program else []), *lines]), OrderContext(hand=HAND, options=options))


@pytest.mark.parametrize(("line", "subject", "answer"), [
    ("BRAKES 1, 5", BRAKES, {"1": True, "5": True}),
    ("brakes in registers 1-3", BRAKES, {"1": True, "2": True, "3": True}),
    ("Fourth gear 3", FOURTH_GEAR, {"3": True}),
    ("4th gear: c", FOURTH_GEAR, {"3": True}),
    ("REVERSE GEARS 4", REVERSE_GEARS, {"4": True}),
    ("CRAB 5: LEFT", CRAB_LEGS, {"5": "left"}),
    ("crab legs 1 and 5 right", CRAB_LEGS, {"1": "right", "5": "right"}),
    ("DUAL 2: R 80", DUAL_PROCESSOR, {"2": "RT90 80"}),
    ("Dual processor 3 with UTRN 50", DUAL_PROCESSOR, {"3": "UTRN 50"}),
    ("CONDITIONAL 4: U 50 IF ROBOT AHEAD", CONDITIONAL, {"4": {"card": "UTRN 50", "if": "ROBOT AHEAD"}}),
    ("conditional 1: LF90 90 if not facing w", CONDITIONAL, {"1": {"card": "LF90 90", "if": "NOT FACING W"}}),
    ("CONDITIONAL 2: RT90 100 IF DAMAGE>=3", CONDITIONAL, {"2": {"card": "RT90 100", "if": "DAMAGE >= 3"}}),
    ("CONDITIONAL 5: RT90 100 IF AT R5C4", CONDITIONAL, {"5": {"card": "RT90 100", "if": "AT r5c4"}}),
    ("FIRE CONTROL 2: OPTION", FIRE_CONTROL, {"2": "option"}),
    ("FLYWHEEL: LF90 90", FLYWHEEL, "LF90 90"),
    ("ABORT 3", ABORT_SWITCH, 3),
    ("abort switch never", ABORT_SWITCH, 0),
    ("GYRO ON THIS TURN", GYROSCOPE, True),
])
def test_a_turn_clause_reads_into_the_engines_answer(line, subject, answer):
    result = read(line)
    assert result.ok, result.errors
    assert result.option_orders == {subject: answer} and result.standing.options == {}


@pytest.mark.parametrize(("line", "subject", "answer"), [
    ("GYRO ON", GYROSCOPE, True),
    ("Gyroscopic stabilizer: off", GYROSCOPE, False),
    ("CIRCUIT BREAKER OFF", CIRCUIT_BREAKER, False),
    ("FIRE CONTROL: REGISTER", FIRE_CONTROL, "register"),
    ("ABORT 2 EVERY TURN", ABORT_SWITCH, 2),
    ("SACRIFICE ORDER: PRESSOR, BRAKES", SACRIFICE_ORDER, ["pressor beam", "brakes"]),
])
def test_a_standing_clause_is_kept_until_changed(line, subject, answer):
    result = read(line, program=False)
    assert result.ok, result.errors
    assert result.standing.options == {subject: answer} and result.option_orders == {}


def test_recompile_alone_asks_for_a_second_hand():
    result = read("RECOMPILE", program=False)
    assert result.ok and result.recompile and result.option_orders == {RECOMPILE: True}


@pytest.mark.parametrize(("line", "says"), [
    ("BRAKES 2", "your robot does not hold Brakes"),
    ("GYRO ON", "your robot does not hold Gyroscopic Stabilizer"),
])
def test_a_clause_for_a_card_not_held_is_an_error_naming_the_line(line, says):
    result = read(line, options=["shield"])
    (error,) = result.errors
    assert error.line == 6 and says in error.message and "shield" in error.message and result.registers is None


@pytest.mark.parametrize(("line", "says"), [
    ("DUAL 4: R 80", "RT90 80 cannot share a register with RVS1 430"),          # register 4 holds a Back Up
    ("DUAL 2: FWD1 490", "FWD1 490 is not a turn card"),
    ("FLYWHEEL: FWD1 500", "FWD1 500 is already in register 1"),
    ("CONDITIONAL 2: RT90 100 IF ROBOT AHEAD\nDUAL 2: RT90 100", "RT90 100 is already on the Conditional Program"),
    ("CONDITIONAL 4: UTRN 50 IF RAINING", "is not a condition"),
    ("CONDITIONAL 4: FWD2 760 IF ROBOT AHEAD", "not in your hand"),
    ("BRAKES", "write e.g. BRAKES 2"),
    ("RECOMPILE", "send RECOMPILE alone"),
])
def test_a_clause_that_cannot_be_used_says_why(line, says):
    result = read(*line.split("\n"))
    assert not result.ok and any(says in e.message for e in result.errors), result.errors
    assert len(result.errors) == 1 and result.errors[0].line == 5 + len(line.split("\n")), result.errors


def test_conditional_program_holds_one_card():
    result = read("CONDITIONAL 4: UTRN 50 IF ROBOT AHEAD", "CONDITIONAL 2: RT90 100 IF WALL AHEAD")
    assert [e.line for e in result.errors] == [7] and "holds one card" in result.errors[0].message


def test_two_clauses_that_disagree_are_an_error():
    result = read("CRAB 1: LEFT", "CRAB 1: RIGHT")
    assert [e.line for e in result.errors] == [7] and "contradicts line 6" in result.errors[0].message


def test_prose_that_starts_like_a_card_the_robot_lacks_is_prose():
    result = parse_orders("\n".join([*PROGRAM, "Reverse psychology will not help you."]),
                          OrderContext(hand=HAND, options=[]))
    assert result.ok and result.ignored == [(6, "Reverse psychology will not help you.")]


def test_the_echo_reads_back_to_the_same_option_orders():
    lines = ["BRAKES 1, 5", "CRAB 1: LEFT", "DUAL 2: R 80", "CONDITIONAL 4: U 50 IF ROBOT AHEAD", "GYRO ON",
             "FIRE 3: PRESSOR", "FIRE CONTROL 2: OPTION", "ABORT 3", "FLYWHEEL: LT 90", "SACRIFICE ORDER: BRAKES, GYRO"]
    result = read(*lines)
    assert result.ok, result.errors
    echo = render_echo(game="RR-1", robot="Twonky", turn=2, registers=result.program, standing=result.standing,
                       hand=HAND, options=ALL, turn_options=result.option_orders, key="k")
    body = echo[echo.index("BEGIN"):].split("\n", 1)[1]
    again = parse_orders(body, OrderContext(hand=HAND, options=ALL), strict=True)
    assert again.ok, again.errors
    assert again.option_orders == result.option_orders and again.standing.options == result.standing.options
    assert again.standing.fire == {3: "pressor beam"}


def test_the_order_form_shows_only_the_options_held():
    result = read("GYRO ON", program=False)
    echo = render_echo(game="RR-1", robot="Twonky", turn=2, registers=None, standing=result.standing, hand=HAND,
                       options=["gyroscopic stabilizer", "brakes"], key="k")
    assert "# Brakes: BRAKES 2 | BRAKES 2, 4" in echo and "GYRO ON" in echo
    assert "Crab" not in echo and "CRAB" not in echo and "DUAL" not in echo


def test_the_language_takes_exactly_the_programs_the_engines_rules_take():
    """Issue 12: the program rules are engine/programs.check_program's, whatever way the cards are written."""
    rng = random.Random(16)
    deck = [parse_card(c) for c in ("FWD2 760", "RT90 200", "UTRN 60")]   # cards not in the hand
    locked = {5: parse_card("FWD1 520")}
    for _ in range(200):
        cards = [rng.choice(HAND + deck) for _ in range(4)] + [rng.choice([locked[5], HAND[0]])]
        text = "\n".join(f"{i}: {c}" for i, c in enumerate(cards, start=1))
        result = parse_orders(text, OrderContext(hand=HAND, locked=locked))
        try:
            check_program("Twonky", HAND, locked, cards)
            accepted = True
        except ProgramError:
            accepted = False
        assert result.ok == accepted, (text, result.errors)
