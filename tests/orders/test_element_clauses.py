"""Orders for board elements' choices by mail: CHOP SHOP and RESET clauses, and what the engine is then told.

Rulings cited (docs/rulings.md): 15.r2, 44.6.
"""

from __future__ import annotations

import pytest

from referee.engine import Robot, parse_card, resolve_turn
from referee.engine.decisions import Answers
from referee.engine.element_orders import element_key
from referee.engine.elements.chop_shops import CHOP_SHOP
from referee.engine.elements.reset_sites import RESET_CHOOSE, RESET_EXCHANGE
from referee.orders import OrderContext, parse_orders
from referee.orders.element_clauses import element_line, form_lines
from referee.orders.replies import program_block, render_echo

from ..engine.scenarios import element, engine_board
from .helpers import HAND

PROGRAM = ["1: FWD2 670", "2: FWD1 500", "3: LF90 90", "4: RT90 80", "5: UTRN 10"]


def read(*lines: str):
    return parse_orders("\n".join([*PROGRAM, *lines]), OrderContext(hand=HAND))


@pytest.mark.parametrize(("line", "subject", "answer"), [
    ("CHOP SHOP: OPTION", CHOP_SHOP, "option"),
    ("chop shop none", CHOP_SHOP, "none"),
    ("Chop-shop: decline.", CHOP_SHOP, "none"),
    ("RESET CHOOSE: FWD3 790", RESET_CHOOSE, "FWD3 790"),
    ("reset choose 790", RESET_CHOOSE, "FWD3 790"),
    ("Reset choose: random", RESET_CHOOSE, "random"),
    ("RESET CHOOSE NONE", RESET_CHOOSE, "none"),
    ("RESET EXCHANGE 3: FWD3 790", RESET_EXCHANGE, {"3": "FWD3 790"}),
    ("reset 5: P790", RESET_EXCHANGE, {"5": "FWD3 790"}),
    ("RESET EXCHANGE REGISTER 2 FWD3 790", RESET_EXCHANGE, {"2": "FWD3 790"}),
])
def test_each_way_of_writing_an_element_order_gives_the_engines_answer(line, subject, answer):
    result = read(line)
    assert result.ok, result.errors
    assert result.option_orders == {subject: answer}
    assert [str(r.card) for r in result.registers] == ["FWD2 670", "FWD1 500", "LF90 90", "RT90 80", "UTRN 10"]


@pytest.mark.parametrize(("line", "says"), [
    ("CHOP SHOP: MAYBE", "no chop shop answer"),
    ("RESET CHOOSE: FWD9 999", "is not a card"),
    ("RESET EXCHANGE 1: FWD3 790", "registers 2-5"),
    ("RESET: FWD3 790", "RESET EXCHANGE 3: FWD2 700"),
])
def test_a_badly_written_element_order_is_an_error_that_says_how_to_write_it(line, says):
    result = read(line)
    assert not result.ok and result.registers is None   # a mail with an error changes nothing
    assert says in str(result.errors[0]) and result.errors[0].line == 6


def test_an_exchange_for_two_registers_and_a_choice_travel_together_and_are_echoed():
    result = read("RESET EXCHANGE 2: FWD3 790", "RESET EXCHANGE 4: RVS1 440", "RESET CHOOSE: RANDOM")
    assert result.option_orders == {RESET_EXCHANGE: {"2": "FWD3 790", "4": "RVS1 440"}, RESET_CHOOSE: "random"}
    echo = render_echo(game="RR-7", robot="Twonky", turn=4, registers=result.program, hand=HAND,
                       turn_options=result.option_orders)
    assert "RESET EXCHANGE 2: FWD3 790" in echo and "RESET CHOOSE: RANDOM" in echo


def test_a_contradiction_between_two_lines_is_an_error():
    result = read("CHOP SHOP: OPTION", "CHOP SHOP: NONE")
    assert [e.line for e in result.errors] == [7] and "contradicts line 6" in result.errors[0].message


def test_the_mails_orders_are_the_answers_the_engine_asks_on_a_reset_site():
    said = read("RESET EXCHANGE 2: RT90 100", "RESET CHOOSE: RANDOM").option_orders
    orders = {element_key(RESET_EXCHANGE, int(reg)): card for reg, card in said[RESET_EXCHANGE].items()}
    orders[element_key(RESET_CHOOSE)] = said[RESET_CHOOSE]
    board = engine_board([element("reset_site", "r3c4")])
    program = [parse_card(c) for c in ("UTRN 10", "UTRN 20", "UTRN 30", "UTRN 40", "UTRN 50")]
    result = resolve_turn(board, [Robot("Twonky", (3, 4), 0)], {"Twonky": program},
                          answers=Answers(orders={"Twonky": orders}))
    assert result.played["Twonky"][1] == parse_card("RT90 100")
    assert [(d.key.subject, d.source) for d in result.decisions if d.source == "orders"] == \
        [(RESET_EXCHANGE, "orders"), (RESET_CHOOSE, "orders")]
    assert result.robots[0].option_data["reset site"] == {"random": True}


@pytest.mark.parametrize(("line", "answer"), [
    ("RADIOACTIVE WASTE: NONE", dict.fromkeys("12345", "none")),
    ("radioactive waste 2, 4: draw", {"2": "draw", "4": "draw"}),
    ("Radioactive 3 no", {"3": "none"}),
])
def test_radioactive_waste_is_asked_per_register_and_one_answer_may_hold_for_the_whole_turn(line, answer):
    """Ruling 16.2: the element declares its choice (grammar, form line, answer) in its own module; the
    order language reads it with the one generic reader."""
    result = read(line)
    assert result.ok, result.errors
    assert result.option_orders == {"radioactive waste": answer}


def test_a_declared_element_choice_gets_its_form_line_and_echo_from_its_declaration():
    assert form_lines(["radioactive_waste", "wall"]) == [
        "# radioactive waste: RADIOACTIVE WASTE: NONE | RADIOACTIVE WASTE 2, 4: DRAW"]
    assert element_line("radioactive waste", "none", 2) == "RADIOACTIVE WASTE 2: NONE"


def test_the_order_form_of_a_course_with_radioactive_waste_shows_how_to_answer_its_choice():
    block = program_block(game="RR-7", robot="Twonky", turn=4, registers={}, hand=HAND,
                          elements=["radioactive_waste", "chop_shop", "wall"])
    assert "# chop shop: CHOP SHOP: OPTION | CHOP SHOP: NONE" in block
    assert "# radioactive waste: RADIOACTIVE WASTE: NONE | RADIOACTIVE WASTE 2, 4: DRAW" in block
    assert not [line for line in program_block(game="RR-7", robot="Twonky", turn=4, registers={}, hand=HAND)
                if "WASTE" in line]
