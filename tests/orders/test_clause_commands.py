"""The commands clause (orders/clauses/commands.py): HELP, STATUS, CARDS, PREVIEW, HINT; END; BEGIN.

Rulings cited (docs/rulings.md): 17.a.
"""

from referee.orders import parse_orders


def test_commands_are_answered_once_each_in_the_order_asked_politely_or_not():
    assert parse_orders("Hints please\nHELP\nstatus\nHELP").commands == ["hint", "help", "status"]


def test_end_alone_is_no_order_and_no_error():
    result = parse_orders("END")
    assert result.ok and result.commands == [] and result.standing.is_empty()


def test_a_bare_begin_line_among_orders_gets_the_form_of_a_good_one():
    (error,) = parse_orders("BEGIN", strict=True).errors
    assert error.message.startswith("a BEGIN line reads BEGIN <game> <robot> TURN <n>")
