"""The two-wrench clause (orders/clauses/wrench.py): repair or option on a two-wrench site."""

from referee.orders import parse_orders


def test_double_wrench_without_a_colon_reads_too():
    assert parse_orders("double wrench option").standing.two_wrenches == "option"


def test_a_two_wrench_line_without_a_choice_gets_the_form():
    (error,) = parse_orders("On two wrenches: maybe").errors
    assert error.message == "write ON TWO WRENCHES: REPAIR or ON TWO WRENCHES: OPTION"
