"""Programs live in the engine: the hand a robot is dealt and whether a program is legal for it."""

import pytest

from referee.engine import parse_card
from referee.engine.programs import ProgramError, check_program, hand_size
from referee.engine.state import Robot

HAND = [parse_card(c) for c in ("FWD1 490", "FWD2 670", "RT90 80", "LF90 70", "UTRN 10", "RVS1 430",
                                "FWD3 790", "RT90 100", "LF90 90")]


def test_a_robot_is_dealt_nine_cards_less_its_damage_and_none_off_the_board_or_powered_down():
    assert hand_size(Robot("Twonky", (1, 1), 0)) == 9
    assert hand_size(Robot("Twonky", (1, 1), 0, damage=4)) == 5
    assert hand_size(Robot("Twonky", None, 0, damage=2)) == 0
    assert hand_size(Robot("Twonky", (1, 1), 0, powered_down=True)) == 0


def test_a_legal_program_comes_back_as_its_five_registers():
    assert check_program("Twonky", HAND, {}, HAND[:5]) == HAND[:5]


def test_a_fused_register_keeps_its_card_and_the_others_come_from_the_hand():
    fused = {5: parse_card("FWD2 680")}
    assert check_program("Twonky", HAND[:4], fused, ["FWD1 490", "FWD2 670", "RT90 80", "LF90 70"])[4] == fused[5]


def test_every_problem_is_named_by_its_register():
    with pytest.raises(ProgramError) as err:
        check_program("Twonky", HAND, {}, ["FWD1 490", "FWD1 490", "FWD2 680", None, "UTRN 10"])
    assert err.value.problems == ["register 2: FWD1 490 is already in register 1",
                                  "register 3: FWD2 680 is not in Twonky's hand", "register 4 is empty"]
