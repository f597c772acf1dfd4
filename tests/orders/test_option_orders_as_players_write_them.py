"""Option orders as players write them (issue 30, defects 4-7): every card's order is read from the card's own
declaration, a line naming an option order is an order or an error (never prose), the order form offers only
what the robot can order now, and an option order that cannot act on the program in the same mail is refused.

Rulings cited (docs/rulings.md): 16.m7.
"""

from __future__ import annotations

import pytest

from referee.engine.option_orders import BRAKES, CONDITIONAL, CRAB_LEGS, DUAL_PROCESSOR, FLYWHEEL, GYROSCOPE
from referee.orders import OrderContext, parse_orders
from referee.orders.option_lines import usage_lines
from referee.orders.replies import render_echo
from referee.orders.terms import StandingOrders

from .helpers import HAND

# HAND: 1 FWD2 670, 2 FWD1 500, 3 LF90 90, 4 RT90 80, 5 UTRN 10, 6 FWD1 520, 7 RVS1 430, 8 FWD3 800, 9 LF90 110
PROGRAM = ["1: FWD1 500", "2: FWD2 670", "3: FWD3 800", "4: RVS1 430", "5: FWD1 520"]
EVERYTHING = ["Brakes", "Crab Legs", "Dual Processor", "Conditional Program", "Gyroscopic Stabilizer", "Pressor Beam",
              "Mini Howitzer", "Tractor Beam", "Flywheel", "Fourth Gear", "Circuit Breaker", "Shield", "Abort Switch"]


def read(*lines: str, options=EVERYTHING, program=True):
    return parse_orders("\n".join([*(PROGRAM if program else []), *lines]), OrderContext(hand=HAND, options=options))


# defect 5: a line that names an order is an order ------------------------------------------------
@pytest.mark.parametrize(("line", "fire"), [
    ("PRESSOR BEAM 2", {2: "Pressor Beam"}),
    ("MINI HOWITZER 2", {2: "Mini Howitzer"}),
    ("TRACTOR BEAM 3", {3: "Tractor Beam"}),
    ("USE PRESSOR BEAM IN 2", {2: "Pressor Beam"}),
    ("Use the mini howitzer in registers 2-3", {2: "Mini Howitzer", 3: "Mini Howitzer"}),
    ("FIRE 2: HOWITZER", {2: "Mini Howitzer"}),        # defect 6: one of the card's words
    ("FIRE PRESSOR BEAM IN 4", {4: "Pressor Beam"}),
])
def test_a_weapon_cards_own_line_is_a_fire_order(line, fire):
    result = read(line)
    assert result.ok, result.errors
    assert result.standing.fire == fire


@pytest.mark.parametrize(("line", "subject", "answer", "standing"), [
    ("Use brakes in register 1", BRAKES, {"1": True}, False),
    ("BRAKES ON 5", BRAKES, {"5": True}, False),                              # defect 6
    ("KEEP LF90 110 ON FLYWHEEL", FLYWHEEL, "LF90 110", False),
    ("flywheel: 9", FLYWHEEL, "LF90 110", False),                             # defect 6: a hand position
    ("dual 2: 4", DUAL_PROCESSOR, {"2": "RT90 80"}, False),
    ("STABILIZER ON", GYROSCOPE, True, True),
    ("CRAB 1: LEFT, 5: RIGHT", CRAB_LEGS, {"1": "left", "5": "right"}, False),
    ("CONDITIONAL 3: LF90 90 IF FACING NORTH", CONDITIONAL, {"3": {"card": "LF90 90", "if": "FACING N"}}, False),
    ("CONDITIONAL 3: LF90 90 IF DAMAGE > 2", CONDITIONAL, {"3": {"card": "LF90 90", "if": "DAMAGE >= 3"}}, False),
    ("CONDITIONAL 3: 3 IF WALL IN FRONT", CONDITIONAL, {"3": {"card": "LF90 90", "if": "WALL AHEAD"}}, False),
    ("CONDITIONAL 3: LF90 90 IF NOT ROBOT IN FRONT", CONDITIONAL,
     {"3": {"card": "LF90 90", "if": "NOT ROBOT AHEAD"}}, False),
])
def test_option_orders_written_the_ways_players_write_them_are_read(line, subject, answer, standing):
    result = read(line)
    assert result.ok, result.errors
    said = result.standing.options if standing else result.option_orders
    assert said == {subject: answer}


def test_breaker_off_is_the_circuit_breakers_standing_order():
    result = read("BREAKER OFF", program=False)
    assert result.ok and result.standing.options == {"circuit breaker": False}


@pytest.mark.parametrize(("line", "says"), [
    ("TAKE OPTION", "ON TWO WRENCHES: OPTION"),
    ("DRAW OPTION", "CHOP SHOP: OPTION"),
    ("BRAKES ON", "write e.g. BRAKES 2"),
    ("CONDITIONAL 3: LF90 90 IF RAINING", "FACING N (E, S, W), AT r5c4, ROBOT AHEAD, WALL AHEAD or DAMAGE >= 3"),
    ("flywheel: 11", "'11' is not a card"),
    ("MINI HOWITZER", "write e.g. FIRE 3: MINI HOWITZER or MINI HOWITZER 3"),
    ("Use the pressor beam", "write e.g. FIRE 3: PRESSOR BEAM or PRESSOR BEAM 3"),
])
def test_a_line_naming_an_order_that_cannot_be_read_is_an_error_saying_how(line, says):
    result = read(line, program=False)
    assert not result.ok and not result.ignored
    assert says in result.errors[0].message, result.errors


def test_on_two_wrenches_draw_takes_an_option():
    assert read("ON TWO WRENCHES: DRAW", program=False).standing.two_wrenches == "option"
    assert read("on two wrenches: draw an option", program=False).standing.two_wrenches == "option"


def test_the_lines_of_a_weapon_the_robot_lacks_are_errors_not_prose():
    result = read("PRESSOR BEAM 2", options=["Brakes"])
    assert [e.message for e in result.errors] == [
        "your robot does not hold Pressor Beam, so it cannot fire it (its options: Brakes)"]


# defect 4: not weapons --------------------------------------------------------------------------
@pytest.mark.parametrize("card", ["Brakes", "Shield", "Abort Switch", "Gyroscopic Stabilizer"])
def test_a_card_that_is_no_weapon_cannot_be_fired(card):
    (error,) = read(f"FIRE 2: {card.upper()}").errors
    assert error.message == (f"{card} is not a weapon: FIRE orders name a weapon "
                             "(yours: main laser, Pressor Beam, Mini Howitzer, Tractor Beam)")


def test_the_form_offers_only_weapons_the_robot_holds_and_no_fire_order_for_a_lost_one():
    kept = StandingOrders(fire={3: "Pressor Beam"})
    lost = render_echo(game="RR-1", robot="Twonky", turn=2, registers=None, standing=kept, hand=HAND,
                       options=["Brakes", "Abort Switch", "Gyroscopic Stabilizer"], key="k")
    assert "PRESSOR" not in lost
    assert "# FIRE 1-5: MAIN LASER   (not given; your weapons: main laser)" in lost
    held = render_echo(game="RR-1", robot="Twonky", turn=2, registers=None, standing=kept, hand=HAND,
                       options=["Brakes", "Pressor Beam"], key="k")
    assert "FIRE 3: PRESSOR BEAM" in held


# defect 7: checked against the program in the same mail ------------------------------------------
@pytest.mark.parametrize(("line", "says"), [
    ("BRAKES 2", "Brakes acts on a Move 1; register 2 holds FWD2 670"),
    ("FOURTH GEAR 1", "Fourth Gear acts on a Move 3; register 1 holds FWD1 500"),
    ("CRAB 2: LEFT", "Crab Legs acts on a Move 1; register 2 holds FWD2 670"),
    ("BRAKES 2-4", "Brakes acts on a Move 1; none of the registers named holds one (2: FWD2 670, 3: FWD3 800, "
                   "4: RVS1 430)"),
])
def test_an_option_order_that_cannot_act_on_the_program_of_the_same_mail_is_refused(line, says):
    result = read(line)
    (error,) = result.errors
    assert error.line == 6 and says in error.message and result.registers is None


def test_option_orders_that_fit_the_program_are_taken():
    result = read("BRAKES 1, 5", "FOURTH GEAR 3", "CRAB 1: RIGHT")
    assert result.ok, result.errors
    result = read("BRAKES 1-3")   # one of the registers named holds a Move 1: the line is taken
    assert result.ok and result.option_orders == {BRAKES: {"1": True, "2": True, "3": True}}


# usage lines (shown when a card arrives) ---------------------------------------------------------
def test_a_cards_usage_lines_say_what_it_does_and_how_to_order_it():
    assert usage_lines("brakes") == ["Brakes: a Move 1 may move nothing", "  order: BRAKES <registers>",
                                     "  Brakes acts on a Move 1", "  e.g. BRAKES 2, or BRAKES 2, 4"]
    assert usage_lines("Pressor Beam")[1:] == [
        "  order: FIRE <registers>: PRESSOR BEAM   (or PRESSOR BEAM <registers>)", "  e.g. FIRE 3: PRESSOR BEAM"]
    assert usage_lines("Extra Memory") == ["Extra Memory: one more program card is dealt each turn",
                                           "  no order: it works by itself"]
    assert usage_lines("Laser Cannon") == []


def test_every_example_in_the_usage_lines_reads_as_its_order():
    from referee.engine.option_cards import cards

    for card in cards():
        example = usage_lines(card.name)[-1]
        if not example.startswith("  e.g. "):
            continue
        for line in example.removeprefix("  e.g. ").split(", or "):
            line = line.replace("U 50", "UTRN 10").replace("M2 490", "FWD2 670").replace("R 80", "RT90 80")
            result = parse_orders(line, OrderContext(hand=HAND, options=[card.name]))
            assert result.ok and not result.ignored, (card.name, line, result.errors)
