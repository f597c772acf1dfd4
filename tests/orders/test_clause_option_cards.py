"""The option-cards clause (orders/clauses/option_cards.py): an option card's order goes through
orders/options.py and is refused for a card the robot does not hold."""

from referee.orders import OrderContext, parse_orders


def test_an_order_for_a_card_the_robot_holds_is_for_this_turn():
    result = parse_orders("BRAKES 3", OrderContext(options=["Brakes"]))
    assert result.ok and result.option_orders == {"brakes": {"3": True}}


def test_an_order_for_a_card_the_robot_lacks_is_refused_naming_its_cards():
    (error,) = parse_orders("BRAKES 3", OrderContext(options=["Pressor Beam"])).errors
    assert error.message == ("your robot does not hold Brakes, so this order cannot be taken "
                             "(its options: Pressor Beam)")


def test_the_same_option_order_twice_with_different_answers_contradicts():
    (error,) = parse_orders("GYRO ON\nGYRO OFF", OrderContext(options=["Gyroscopic Stabilizer"])).errors
    assert error.line == 2 and "contradicts line 1" in error.message
