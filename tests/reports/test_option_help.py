"""What the mail says about an option card when a robot gets it: one line, from the card's own declaration,
on what it does and, for a card that takes orders, how the order is written, with an example the order
language reads back as that card's order."""

from __future__ import annotations

import pytest

from referee.engine import parse_card
from referee.orders.options import card_names, read_clause, weapon_named, weapons_held
from referee.reports.option_help import card_line

#: cards the examples name from the hand (Conditional Program, Dual Processor, Flywheel)
HAND = [parse_card(c) for c in ("UTRN 50", "RT90 80", "FWD1 490", "FWD1 500", "LF90 70")]


@pytest.mark.parametrize("card", card_names())
def test_every_option_card_is_told_in_one_line_that_says_what_it_does(card):
    line = card_line(card)
    assert line.startswith(f"{card}: ") and line.endswith(".") and "\n" not in line
    assert "an option card" not in line   # every card declares what it does
    assert ". Order: " in line or line.endswith("; it works by itself.")


@pytest.mark.parametrize("card", card_names())
def test_the_example_in_the_line_reads_back_as_an_order_for_that_card(card):
    line = card_line(card)
    if ", e.g. " not in line:
        assert line.endswith("; it works by itself.")
        return
    order = line.rsplit(", e.g. ", 1)[1].rstrip(".")
    if order.startswith("FIRE ") and not order.startswith("FIRE CONTROL"):
        assert weapons_held([card]) == [card] and weapon_named(order.split(":", 1)[1], [card]) == card
        return
    clause = read_clause(order, [card], HAND)
    assert clause is not None, order
    assert clause.card in (card, "(any)"), (order, clause)


def test_a_card_is_found_by_a_loose_spelling():
    assert card_line("pressor beam") == card_line("Pressor Beam") == (
        "Pressor Beam: instead of the main laser: the target is pushed away. Order: FIRE <registers>: PRESSOR BEAM, "
        "e.g. FIRE 3: PRESSOR BEAM.")
