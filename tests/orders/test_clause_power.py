"""The power-down clause (orders/clauses/power.py): REBOOT, POWER DOWN, NO REBOOT."""

from referee.orders import parse_orders


def test_power_down_next_turn_may_be_written_in_full():
    assert parse_orders("Power down for the next turn").standing.power_down is True


def test_dont_reboot_calls_it_off():
    assert parse_orders("Don't reboot").standing.power_down is False


def test_a_line_led_by_reboot_that_is_no_order_gets_the_form():
    (error,) = parse_orders("reboot now").errors
    assert error.line == 1
    assert error.message == "write REBOOT (or POWER DOWN) to power down next turn, NO REBOOT to call it off"
