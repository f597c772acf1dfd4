"""What the mail says about an option card when a robot gets it: one line on what it does, and order lines
that the order language reads back as that card's orders (the example works as written)."""

from __future__ import annotations

import pytest

from referee.engine import parse_card
from referee.engine.option_orders import WEAPONS
from referee.orders.options import CARD_NAMES, read_clause, weapon_named
from referee.reports.option_help import card_help

#: cards the examples name from the hand (Conditional Program, Dual Processor, Flywheel)
HAND = [parse_card(c) for c in ("UTRN 50", "RT90 80", "FWD1 490", "FWD1 500", "LF90 70")]


@pytest.mark.parametrize("card", CARD_NAMES)
def test_every_option_card_has_a_one_line_summary_and_order_lines(card):
    summary, lines = card_help(card)
    assert summary.endswith(".") and "\n" not in summary and summary != "An option card."
    assert "`" not in summary and ":func:" not in summary
    assert lines and lines[-1].startswith(f"SACRIFICE ORDER: {card.upper()}")


@pytest.mark.parametrize("card", CARD_NAMES)
def test_each_order_line_reads_back_as_an_order_for_that_card(card):
    _, lines = card_help(card)
    for line in lines:
        order = line.split("   (")[0]
        if order.startswith("no order needed"):
            continue
        if order.startswith("FIRE ") and not order.startswith("FIRE CONTROL"):
            assert card in WEAPONS and weapon_named(order.split(":", 1)[1], [card]) == card
            continue
        clause = read_clause(order, [card], HAND)
        assert clause is not None, order
        assert clause.card in (card, "(any)"), (order, clause)


def test_a_card_is_found_by_a_loose_spelling():
    assert card_help("pressor beam") == card_help("Pressor Beam")
    summary, lines = card_help("Pressor Beam")
    assert summary == "Instead of the main laser, the target is pushed one square away."
    assert lines[0].startswith("FIRE 3: PRESSOR   (")
