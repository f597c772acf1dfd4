"""Issue 30, defect 6: programs as players write them are read against the hand, or refused with a hint
that names the cards meant; misleading errors are gone.

The hand (HAND): 1 FWD2 670, 2 FWD1 500, 3 LF90 90, 4 RT90 80, 5 UTRN 10, 6 FWD1 520, 7 RVS1 430,
8 FWD3 800, 9 LF90 110. Only FWD2, RT90, UTRN, RVS1 and FWD3 are held once.
"""

from __future__ import annotations

import pytest

from referee.orders import parse_orders

from .helpers import DAMAGED, FULL, program

FIVE = program("FWD3 800", "RT90 80", "FWD2 670", "RVS1 430", "UTRN 10")


@pytest.mark.parametrize("text", [
    "FWD3(800), RT90(80), FWD2(670), RVS1(430), UTRN(10)",
    "FWD 3 800, RT90 80, FWD 2 670, RVS1 430, UTRN 10",
    "Forward 3, Turn right, Forward 2, Reverse, U-turn",
    "Move 3, Rotate right, Move 2, Back up, U turn",
    "M3, R 80, M2, REV 430, U 10",
    "1: Forward 3\n2: Turn right\n3: FWD 2 670\n4: Reverse\n5: U 10",
    "#1 FWD3 800 #2 RT90 80 #3 FWD2 670 #4 RVS1 430 #5 UTRN 10",
    "#1 FWD3 800\n#2 RT90 80\n#3 FWD2 670\n#4 RVS1 430\n#5 UTRN 10",
    "1: FWD3 800\n2: Right90 80\n3: FWD2 670\n4: RVS1 430\n5: UTRN 10",
    "Forward 3, Right 90 80, Forward 2, Reverse, U 10",
])
def test_a_program_written_as_a_player_would_is_read(text: str):
    result = parse_orders(text, FULL)
    assert [str(e) for e in result.errors] == []
    assert result.program == FIVE


def test_a_turn_card_written_with_its_priority_then_a_bare_priority_is_two_cards():
    """"LF90 90 800": the 90 of LF90 is already the turn, so 90 is the card's priority and 800 the next
    card (found by the property test); "Left 90 110" still reads 90 as the turn and 110 as the priority."""
    result = parse_orders("LF90 90 800 670 80 10", FULL)
    assert [str(e) for e in result.errors] == []
    assert result.program == program("LF90 90", "FWD3 800", "FWD2 670", "RT90 80", "UTRN 10")
    result = parse_orders("Left 90 110, 800, 670, 80, 10", FULL)
    assert result.program == program("LF90 110", "FWD3 800", "FWD2 670", "RT90 80", "UTRN 10")


def test_a_card_named_in_words_that_the_hand_holds_twice_is_asked_about_with_both_cards():
    result = parse_orders("Forward 3, Turn right, Turn left, Reverse, U-turn", FULL)
    assert result.program is None
    (error,) = result.errors
    assert "could be LF90 90 or LF90 110" in str(error) and "write the one you mean" in str(error)


@pytest.mark.parametrize(("text", "power_down"), [("Reboot: yes", True), ("Power down: no", False),
                                                  ("REBOOT = Y", True), ("Power down: off", False)])
def test_reboot_and_power_down_answered_as_on_a_form(text: str, power_down: bool):
    result = parse_orders(f"8, 4, 1, 7, 5\n{text}", FULL)
    assert result.ok and result.standing.power_down is power_down


@pytest.mark.parametrize("text", [
    "1: FWD3 790\n2: RT90 100\n3: FWD1 490\n4: locked\n5: locked",
    "1: FWD3 790\n2: RT90 100\n3: FWD1 490\n4: LF90 70 (locked)\n5: UTRN 20 (locked)",
    "FWD3 790, RT90 100, FWD1 490, locked, locked",
    "FWD3 790, RT90 100, FWD1 490, LF90 70 (locked), UTRN 20 (locked)",
])
def test_a_damaged_robots_locked_places_may_say_locked(text: str):
    result = parse_orders(text, DAMAGED)
    assert [str(e) for e in result.errors] == []
    assert [str(c) for c in result.program] == ["FWD3 790", "RT90 100", "FWD1 490", "LF90 70", "UTRN 20"]


def test_locked_where_no_register_is_locked_is_an_error_naming_the_register():
    result = parse_orders("FWD3 800, RT90 80, FWD2 670, RVS1 430, locked", FULL)
    assert any("register 5 is not locked" in str(e) for e in result.errors)


def test_sacrifice_at_hp_0_is_refused_with_the_words_that_mean_never():
    result = parse_orders("8, 4, 1, 7, 5\nSACRIFICE AT HP 0", FULL)
    assert not result.ok and "write SACRIFICE NEVER" in str(result.errors[0])
    assert parse_orders("8, 4, 1, 7, 5\nSACRIFICE NEVER", FULL).standing.sacrifice_at == 0
