"""The clause table: every kind of order besides the program is one module, registered by one line."""

import re

import pytest

from referee.orders import OrderContext, parse_orders
from referee.orders.clauses import CLAUSES, Clause, register
from referee.orders.clauses.base import mentions
from referee.orders.options import OptionClause
from referee.orders.reading import Bad


def test_the_table_tries_the_clauses_in_their_registration_order():
    assert [c.name for c in CLAUSES] == ["commands", "option cards", "element orders", "power down", "sacrifice",
                                         "two wrenches", "re-entry", "fire"]


def test_a_clause_cannot_be_registered_twice():
    with pytest.raises(ValueError, match="registered twice"):
        register(CLAUSES[0])


def test_prose_that_mentions_a_clause_word_is_an_error_rather_than_a_guess():
    assert mentions().pattern == r"\b(?:REBOOT|POWER[\s-]*DOWN|SACRIFICE|WRENCH(?:ES)?|RE-?ENTER|RE-?ENTRY|FIRE)\b"
    result = parse_orders("I might fire at Twonky later.")
    assert [e.message for e in result.errors] == [
        "this line mentions FIRE but is not an order; write the order on a line of its own "
        "(write HELP for the order language)"]


_SCRAP = re.compile(r"^SCRAP\s+HEAP\s+TAKE\s+(\S+)$")


def _scrap_heap(parser, line):
    if line.first != "SCRAP":
        return False
    m = _SCRAP.match(line.text)
    if m is None:
        raise Bad("write SCRAP HEAP TAKE <card>")
    parser.record_option(OptionClause("scrap heap", m.group(1).lower()), line)
    return True


@pytest.fixture
def scrap_heap_clause(monkeypatch):
    """An invented board element's choice, added as a new module would add it (and taken out again after)."""
    monkeypatch.setattr("referee.orders.clauses.base.CLAUSES", list(CLAUSES))
    import referee.orders.clauses.base as base

    monkeypatch.setattr("referee.orders.parser.CLAUSES", base.CLAUSES)
    base.register(Clause("scrap heap", _scrap_heap, leads=frozenset({"SCRAP"}), hint="write SCRAP HEAP TAKE <card>"))


def test_a_new_clause_registered_by_one_line_is_read(scrap_heap_clause):
    result = parse_orders("SCRAP HEAP TAKE brakes\nREBOOT", OrderContext())
    assert result.ok, result.errors
    assert result.option_orders == {"scrap heap": "brakes"}
    assert result.standing.power_down is True


def test_a_new_clause_refuses_its_own_lines_that_are_wrong_and_contradictions(scrap_heap_clause):
    wrong = parse_orders("SCRAP HEAP brakes please")
    assert [e.message for e in wrong.errors] == ["write SCRAP HEAP TAKE <card>"]
    twice = parse_orders("SCRAP HEAP TAKE brakes\nSCRAP HEAP TAKE shield")
    assert [e.line for e in twice.errors] == [2] and "contradicts line 1" in twice.errors[0].message
