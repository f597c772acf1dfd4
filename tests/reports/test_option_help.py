"""What the mail says about an option card when a robot gets it: one line on what it does (the card's own
declaration), and order lines whose examples the order language reads back as that card's orders."""

from __future__ import annotations

import pytest

from referee.engine import parse_card
from referee.orders.options import card_names, read_clause, weapon_named, weapons_held
from referee.reports.option_help import card_help

#: cards the examples name from the hand (Conditional Program, Dual Processor, Flywheel)
HAND = [parse_card(c) for c in ("UTRN 50", "RT90 80", "FWD1 490", "FWD1 500", "LF90 70")]


@pytest.mark.parametrize("card", card_names())
def test_every_option_card_has_a_one_line_summary_and_order_lines(card):
    summary, lines = card_help(card)
    assert summary.endswith(".") and "\n" not in summary and summary != "An option card."
    assert lines and lines[-1].startswith(f"SACRIFICE ORDER: {card.upper()}")


@pytest.mark.parametrize("card", card_names())
def test_each_example_reads_back_as_an_order_for_that_card(card):
    _, lines = card_help(card)
    examples = [line.split("   (")[0] for line in lines if line.endswith("(an example)")]
    if not examples:
        assert any(line.startswith("no order needed") for line in lines)
        return
    for order in examples:
        if order.startswith("FIRE ") and not order.startswith("FIRE CONTROL"):
            assert weapons_held([card]) == [card] and weapon_named(order.split(":", 1)[1], [card]) == card
            continue
        clause = read_clause(order, [card], HAND)
        assert clause is not None, order
        assert clause.card in (card, "(any)"), (order, clause)


def test_a_card_is_found_by_a_loose_spelling():
    assert card_help("pressor beam") == card_help("Pressor Beam")
    summary, lines = card_help("Pressor Beam")
    assert summary.startswith("Instead of the main laser") and "pushed" in summary
    assert lines[0].startswith("FIRE <registers>: PRESSOR BEAM   (how it is written")
    assert "FIRE 3: PRESSOR BEAM   (an example)" in lines
