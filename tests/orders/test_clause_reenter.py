"""The re-entry clause (orders/clauses/reenter.py): the facing a destroyed robot comes back with."""

from referee.orders import parse_orders


def test_a_compass_word_may_follow_re_enter_directly():
    assert parse_orders("Re-enter west").standing.reenter_facing == 3


def test_reenter_alone_gets_the_form():
    (error,) = parse_orders("reenter").errors
    assert error.message == "write REENTER FACING N (or E, S, W)"


def test_up_is_not_a_facing():
    (error,) = parse_orders("reentry facing up").errors
    assert error.message == "'UP' is not a facing: write REENTER FACING N, E, S or W"
