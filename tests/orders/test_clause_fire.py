"""The fire clause (orders/clauses/fire.py): which weapon fires in which register phase."""

from referee.orders import MAIN_LASER, OrderContext, parse_orders

PRESSOR = OrderContext(options=["Pressor Beam"])


def test_fire_all_then_one_register_with_another_weapon():
    result = parse_orders("FIRE ALL: LASER\nFIRE 3: PRESSOR", PRESSOR)
    assert result.ok, result.errors
    assert result.standing.fire == {1: MAIN_LASER, 2: MAIN_LASER, 3: "Pressor Beam", 4: MAIN_LASER, 5: MAIN_LASER}


def test_a_register_range_must_run_forwards():
    (error,) = parse_orders("FIRE 3-1: LASER").errors
    assert error.message == "register range 3-1 runs backwards"


def test_two_weapons_for_every_register_contradict():
    (error,) = parse_orders("FIRE ALL: LASER\nFIRE ALL: PRESSOR BEAM", PRESSOR).errors
    assert error.line == 2 and error.message == "this contradicts line 1 ('FIRE ALL: LASER')"
