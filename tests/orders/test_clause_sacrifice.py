"""The sacrifice clause (orders/clauses/sacrifice.py): when an option is given up instead of a hit."""

from referee.orders import parse_orders


def test_never_sacrifice_options_is_a_threshold_of_zero():
    assert parse_orders("Never sacrifice options").standing.sacrifice_at == 0


def test_a_sacrifice_line_without_an_hp_gets_the_form():
    (error,) = parse_orders("sacrifice when low").errors
    assert error.message == "write SACRIFICE AT HP 6 (any HP from 1 to 10) or SACRIFICE NEVER"
