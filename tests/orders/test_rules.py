"""The rules for taking orders that the words alone do not settle (orders/rules.py), as examples.

Rulings cited (docs/rulings.md): 20.i3.
"""

import pytest

from referee.orders import OrderContext, parse_orders
from referee.orders.rules import OnFile, OrderRuleError, filing

from .helpers import FULL

PROGRAM = "1: FWD2 670\n2: FWD1 500\n3: LF90 90\n4: RT90 80\n5: UTRN 10"
OWED = OnFile(turn=4, owes=True)
PROGRAM_ON_FILE = OnFile(turn=4, owes=True, has_order=True, program=True)
POWERED_DOWN = OnFile(turn=4, owes=False)


def read(text: str, ctx: OrderContext = FULL):
    result = parse_orders(text, ctx)
    assert result.ok, result.errors
    return result


def test_reboot_alone_is_refused_while_the_program_is_owed():
    with pytest.raises(OrderRuleError, match="REBOOT goes with a program: no program of yours is on file for turn 4"):
        filing(read("REBOOT"), OWED)
    with pytest.raises(OrderRuleError, match=r"^NO REBOOT goes with a program"):
        filing(read("NO REBOOT"), OWED)


def test_reboot_rides_on_a_program_sent_with_it_or_on_file():
    with_program = filing(read(PROGRAM + "\nREBOOT"), OWED)
    assert with_program.submit and with_program.power_down is True and len(with_program.cards) == 5
    alone = filing(read("REBOOT"), PROGRAM_ON_FILE)
    assert alone.submit and alone.power_down is True and list(alone.cards) == []


def test_reboot_needs_no_program_when_none_is_owed():
    plan = filing(read("REBOOT"), POWERED_DOWN)
    assert plan.submit and plan.power_down is True


def test_a_reentry_facing_alone_is_a_standing_order_until_a_program_comes():
    plan = filing(read("REENTER FACING W"), OWED)
    assert not plan.submit
    assert plan.standing == {"reenter_facing": 3}


def test_a_reentry_facing_rides_on_the_program_on_file():
    plan = filing(read("REENTER FACING S"), PROGRAM_ON_FILE)
    assert plan.submit and plan.facing == "S"


def test_the_first_program_of_a_turn_takes_the_standing_facing():
    plan = filing(read(PROGRAM), OnFile(turn=4, owes=True, standing={"reenter_facing": 1}))
    assert plan.facing == "E"


def test_a_later_program_keeps_the_facing_of_the_order_on_file():
    plan = filing(read(PROGRAM), OnFile(turn=4, owes=True, has_order=True, program=True,
                                         standing={"reenter_facing": 1}))
    assert plan.facing is None


def test_a_facing_said_in_the_mail_beats_the_standing_one():
    plan = filing(read(PROGRAM + "\nREENTER FACING N"), OnFile(turn=4, owes=True, standing={"reenter_facing": 2}))
    assert plan.facing == "N"


def test_option_orders_for_this_turn_go_with_a_program():
    ctx = OrderContext(hand=FULL.hand, options=["Brakes"])
    with pytest.raises(OrderRuleError, match=r"^Brakes orders go with a program"):
        filing(read("BRAKES 2", ctx), OWED)
    plan = filing(read(PROGRAM + "\nBRAKES 2", ctx), OWED)
    assert plan.extra is not None and plan.extra["turn_options"] == {"brakes": {"2": True}}


def test_option_orders_without_a_program_add_to_those_on_file():
    ctx = OrderContext(hand=FULL.hand, options=["Brakes", "Gyroscopic Stabilizer"])
    on_file = OnFile(turn=4, owes=True, has_order=True, program=True, turn_options={"brakes": {"2": True}})
    plan = filing(read("GYRO ON THIS TURN", ctx), on_file)
    assert plan.submit and plan.extra is not None
    assert plan.extra["turn_options"]["brakes"] == {"2": True}
    assert len(plan.extra["turn_options"]) == 2


def test_standing_orders_are_kept_but_not_the_power_down():
    plan = filing(read(PROGRAM + "\nREBOOT\nSACRIFICE AT HP 4\nON TWO WRENCHES: OPTION"), OWED)
    assert plan.standing == {"sacrifice_at": 4, "two_wrenches": "option"}
