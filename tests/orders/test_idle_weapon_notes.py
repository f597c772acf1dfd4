"""A weapon ordered where it can never act (Scrambler or Radio Control in register 5: no register follows)
is taken, the main laser fires there instead (rules version 3), and the echo says so in a comment line."""

from __future__ import annotations

from referee.orders import OrderContext, parse_orders
from referee.orders.replies import standing_lines

SCRAMBLER = OrderContext(options=["Scrambler"])


def test_fire_all_scrambler_is_taken_and_the_echo_says_the_main_laser_fires_in_register_5():
    result = parse_orders("FIRE ALL: SCRAMBLER", SCRAMBLER)
    assert result.ok, result.errors
    lines = standing_lines(result.standing, options=["Scrambler"])
    assert "FIRE 1-5: SCRAMBLER" in lines
    (note,) = [line for line in lines if line.startswith("# register 5")]
    assert note == "# register 5: Scrambler cannot act there (no register follows); the main laser fires instead"


def test_radio_control_in_register_5_is_told_too():
    result = parse_orders("FIRE 4-5: RADIO CONTROL", OrderContext(options=["Radio Control"]))
    assert result.ok, result.errors
    lines = standing_lines(result.standing, options=["Radio Control"])
    assert [line for line in lines if line.startswith("# register")] == [
        "# register 5: Radio Control cannot act there (no register follows); the main laser fires instead"]


def test_a_weapon_in_registers_it_can_act_in_gets_no_note():
    result = parse_orders("FIRE 1-4: SCRAMBLER", SCRAMBLER)
    assert result.ok, result.errors
    assert not [line for line in standing_lines(result.standing, options=["Scrambler"]) if line.startswith("# reg")]


def test_the_note_read_back_in_a_reply_is_no_order():
    """The echo's comment pasted back with the orders changes nothing: comments are not orders."""
    lines = standing_lines(parse_orders("FIRE ALL: SCRAMBLER", SCRAMBLER).standing, options=["Scrambler"])
    again = parse_orders("\n".join(lines), SCRAMBLER)
    assert again.ok, again.errors
    assert again.standing.fire == parse_orders("FIRE ALL: SCRAMBLER", SCRAMBLER).standing.fire
