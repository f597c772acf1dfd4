"""The order language: a player's program and standing orders, as a patient game master reads them.

Unless a test says otherwise the robot is undamaged and holds the nine cards of ``HAND``:
1 FWD2 670, 2 FWD1 500, 3 LF90 90, 4 RT90 80, 5 UTRN 10, 6 FWD1 520, 7 RVS1 430, 8 FWD3 800, 9 LF90 110.
"""

import json

import pytest

from referee.engine import parse_card
from referee.orders import MAIN_LASER, OrderContext, StandingOrders, parse_orders

from .helpers import DAMAGED, FULL, HAND, cards, program

FIVE = program("FWD2 670", "FWD1 500", "LF90 90", "RT90 80", "UTRN 10")


def only_error(result):
    assert result.registers is None
    assert len(result.errors) == 1, result.errors
    return result.errors[0]


# --- the two card vocabularies, positions, priorities, types ----------------------------------

def test_a_program_in_the_turn_reports_spelling():
    result = parse_orders("1: FWD2 670\n2: FWD1 500\n3: LF90 90\n4: RT90 80\n5: UTRN 10", FULL)
    assert result.ok
    assert result.program == FIVE
    assert [r.number for r in result.registers] == [1, 2, 3, 4, 5]
    assert [r.line for r in result.registers] == [1, 2, 3, 4, 5]


def test_the_postal_spelling_with_phases_a_to_e_gives_the_same_program():
    text = "a) Move-2 P670\nb) Move-1 P500\nc) Left P90\nd) Right P80\ne) U-Turn P10"
    assert parse_orders(text, FULL).program == FIVE


def test_case_spacing_and_separators_do_not_matter():
    text = "A:move-2 p670\nB . fwd1 500\nphase c = left 90\nREGISTER 4 Right P80\n  5 -  u turn 10"
    assert parse_orders(text, FULL).program == FIVE


def test_hand_positions_count_from_one_in_the_order_the_hand_was_mailed():
    assert parse_orders("3 1 5 2 4", FULL).program == program("LF90 90", "FWD2 670", "UTRN 10", "FWD1 500", "RT90 80")


def test_a_priority_alone_names_its_card():
    assert parse_orders("670, P500, 90, p80, 10", FULL).program == FIVE


def test_a_type_alone_takes_that_types_cards_in_hand_order():
    # two FWD1 in hand: 500 (position 2) comes before 520 (position 6), so register 1 gets 500
    result = parse_orders("FWD1, FWD1, LF90, LF90, UTRN", FULL)
    assert result.program == program("FWD1 500", "FWD1 520", "LF90 90", "LF90 110", "UTRN 10")


def test_a_type_alone_skips_the_cards_named_exactly_elsewhere_in_the_program():
    # register 5 names FWD1 500 itself, so the FWD1 in register 1 is the next one in hand order
    result = parse_orders("1: FWD1\n2: FWD2 670\n3: LF90 90\n4: RT90 80\n5: FWD1 500", FULL)
    assert result.program == program("FWD1 520", "FWD2 670", "LF90 90", "RT90 80", "FWD1 500")


def test_postal_type_names_alone_work_too():
    result = parse_orders("Move-1, Back, Left, Right, U-Turn", FULL)
    assert result.program == program("FWD1 500", "RVS1 430", "LF90 90", "RT90 80", "UTRN 10")


def test_the_cards_may_be_listed_one_a_line_without_numbers():
    assert parse_orders("FWD2 670\nFWD1 500\nLF90 90\nRT90 80\nUTRN 10", FULL).program == FIVE


def test_a_number_before_a_card_on_its_own_line_is_the_register():
    assert parse_orders("1 FWD2 670\n2 FWD1 500\n3 LF90 90\n4 RT90 80\n5 UTRN 10", FULL).program == FIVE


def test_several_numbered_registers_may_share_a_line():
    assert parse_orders("1: FWD2 670, 2: FWD1 500; 3: 3\n4) 4 5) 5", FULL).program == FIVE


def test_a_leading_program_or_orders_word_is_allowed():
    assert parse_orders("Program: 1 2 3 4 5", FULL).program == FIVE
    assert parse_orders("my orders = Move 2 P670, Move 1 P500, U Turn, 3, 4", FULL).program == \
        program("FWD2 670", "FWD1 500", "UTRN 10", "LF90 90", "RT90 80")


def test_glued_spellings_are_read():
    assert parse_orders("FWD2/670, Move-1P500, LF90-90, RT90:80, UTRN(10)", FULL).program == FIVE


def test_comments_bullets_and_odd_spaces_are_skipped():
    text = "# my program\n* 1: FWD2 670   # go!\n- 2:\u00a0FWD1 500\n3: LF90\u200b 90\n4: RT90 80\n5: UTRN 10"
    assert parse_orders(text, FULL).program == FIVE


# --- locked registers ----------------------------------------------------------------------

def test_locked_registers_fill_themselves_and_are_marked():
    result = parse_orders("1: FWD3 790\n2: RT90 100\n3: FWD1 490", DAMAGED)
    assert result.ok
    assert result.program == program("FWD3 790", "RT90 100", "FWD1 490", "LF90 70", "UTRN 20")
    assert [r.locked for r in result.registers] == [False, False, False, True, True]
    assert [r.line for r in result.registers] == [1, 2, 3, None, None]


def test_a_list_fills_the_free_registers_in_order():
    assert parse_orders("2 3 1", DAMAGED).program == program("RT90 100", "FWD1 490", "FWD3 790", "LF90 70", "UTRN 20")


def test_a_list_of_five_may_repeat_the_locked_cards_in_their_places():
    result = parse_orders("FWD3 790, RT90 100, FWD1 490, LF90 70, UTRN 20", DAMAGED)
    assert result.program == program("FWD3 790", "RT90 100", "FWD1 490", "LF90 70", "UTRN 20")


def test_a_locked_register_may_be_written_as_locked_or_with_its_card():
    text = "1: 1\n2: 2\n3: 3\n4: LOCKED\n5: U-Turn P20 (locked)"
    assert parse_orders(text, DAMAGED).program == program("FWD3 790", "RT90 100", "FWD1 490", "LF90 70", "UTRN 20")


def test_changing_a_locked_register_is_an_error_that_names_the_line():
    err = only_error(parse_orders("1: 1\n2: 2\n3: 3\n4: LF90 70\n5: FWD1 490", DAMAGED))
    assert err.line == 5
    assert "register 5 is locked with UTRN 20" in err.message


def test_calling_an_unlocked_register_locked_is_an_error():
    err = only_error(parse_orders("1: 1 (locked)\n2: 2\n3: 3", DAMAGED))
    assert (err.line, err.message) == (1, "register 1 is not locked")


# --- errors that name the line -------------------------------------------------------------

def test_a_card_not_in_the_hand_is_an_error_naming_the_line_and_the_hand():
    err = only_error(parse_orders("1: FWD2 670\n2: FWD2 680\n3: 3\n4: 4\n5: 5", FULL))
    assert err.line == 2
    assert err.text == "2: FWD2 680"
    assert "FWD2 680 is not in your hand" in err.message
    assert "FWD2 670" in err.message   # the hand is listed


def test_a_card_that_is_not_in_the_deck_says_so():
    err = only_error(parse_orders("FWD2 675, 2, 3, 4, 5", FULL))
    assert err.line == 1
    assert "no FWD2 card with priority 675" in err.message


def test_a_card_given_twice_is_an_error():
    err = only_error(parse_orders("1: FWD2 670\n2: 2\n3: 1\n4: 4\n5: 5", FULL))
    assert err.line == 3
    assert "FWD2 670 is used twice" in err.message
    assert "register 1" in err.message


def test_too_few_cards_is_an_error_naming_the_count():
    err = only_error(parse_orders("1 2 3 4", FULL))
    assert err.line == 1
    assert "you listed 4 cards; this program needs 5" in err.message


def test_too_many_cards_names_the_line_where_the_extra_card_is():
    err = only_error(parse_orders("1 2 3\n4 5\n6", FULL))
    assert err.line == 3
    assert "you listed 6 cards" in err.message


def test_a_damaged_robots_wrong_count_names_its_locked_registers():
    err = only_error(parse_orders("1 2", DAMAGED))
    assert "needs 3 (registers 1-3; registers 4-5 locked)" in err.message


def test_a_missing_register_is_an_error():
    err = only_error(parse_orders("1: 1\n2: 2\n4: 4\n5: 5", FULL))
    assert err.line is None
    assert "register 3 is missing" in err.message


def test_a_register_given_twice_is_an_error():
    result = parse_orders("1: 1\n2: 2\n2: 3\n3: 3\n4: 4\n5: 5", FULL)
    assert [e.line for e in result.errors] == [3]
    assert "register 2 is already given on line 2" in result.errors[0].message


def test_numbered_and_listed_cards_cannot_be_mixed():
    err = only_error(parse_orders("1: 1\n2: 2\n3 4 5", FULL))
    assert err.line == 3
    assert "number every register or list all the cards" in err.message


def test_a_position_beyond_the_hand_is_an_error():
    err = only_error(parse_orders("1 2 3 4 6", OrderContext(hand=HAND[:5])))
    assert "no card number 6 in your hand (it holds 5)" in err.message


def test_a_type_with_no_card_left_says_where_its_cards_went():
    err = only_error(parse_orders("1: UTRN\n2: UTRN\n3: 3\n4: 4\n5: 2", FULL))
    assert err.line == 2
    assert "no UTRN card is left for register 2 (UTRN 10 is in register 1)" in err.message


def test_every_error_of_a_mail_is_reported_at_once():
    result = parse_orders("1: FWD2 999\n2: 2\n3: 2\n4: 40\n5: 5", FULL)
    assert [e.line for e in result.errors] == [1, 3, 4]


def test_a_robot_without_cards_cannot_send_a_program():
    err = only_error(parse_orders("1 2 3 4 5", OrderContext()))
    assert "no cards in hand" in err.message


def test_an_unreadable_card_word_is_an_error():
    err = only_error(parse_orders("FWD2 670, FWR1 500, 3, 4, 5", FULL))
    assert "'FWR1' is not a card" in err.message


# --- standing orders -------------------------------------------------------------------------

@pytest.mark.parametrize("line", ["REBOOT", "power down", "Powerdown", "POWER-DOWN", "reboot next turn"])
def test_reboot_and_power_down_order_a_power_down_next_turn(line):
    result = parse_orders(line, FULL)
    assert result.ok and result.standing.power_down is True
    assert result.registers is None and not result.program_given


@pytest.mark.parametrize("line", ["NO REBOOT", "no power down", "cancel reboot", "Don't reboot"])
def test_no_reboot_calls_a_power_down_off(line):
    assert parse_orders(line, FULL).standing.power_down is False


def test_reboot_and_no_reboot_in_one_mail_contradict():
    err = only_error(parse_orders("REBOOT\nNO REBOOT", FULL))
    assert err.line == 2 and "contradicts line 1" in err.message


def test_cancel_alone_is_asked_about():
    assert "NO REBOOT" in only_error(parse_orders("CANCEL", FULL)).message


def test_the_sacrifice_threshold_is_unset_until_given():
    assert parse_orders("1 2 3 4 5", FULL).standing.sacrifice_at is None


@pytest.mark.parametrize(("line", "hp"), [("SACRIFICE AT HP 4", 4), ("sacrifice options at 8", 8),
                                          ("Sacrifice at HP6", 6), ("SACRIFICE NEVER", 0), ("never sacrifice", 0)])
def test_the_option_sacrifice_threshold(line, hp):
    assert parse_orders(line, FULL).standing.sacrifice_at == hp


def test_a_sacrifice_threshold_beyond_ten_is_an_error():
    assert "out of range" in only_error(parse_orders("SACRIFICE AT HP 11", FULL)).message


@pytest.mark.parametrize(("line", "choice"), [("ON TWO WRENCHES: REPAIR", "repair"), ("on 2 wrenches option", "option"),
                                              ("Two wrenches = options", "option"),
                                              ("on a double-wrench site: repair", "repair")])
def test_the_choice_on_a_two_wrench_site(line, choice):
    assert parse_orders(line, FULL).standing.two_wrenches == choice


def test_a_two_wrench_order_without_a_choice_explains_itself():
    assert "ON TWO WRENCHES: REPAIR" in only_error(parse_orders("on two wrenches: maybe", FULL)).message


@pytest.mark.parametrize(("line", "facing"), [("REENTER FACING N", 0), ("re-enter facing east", 1),
                                              ("Reentry: S", 2), ("REENTER W", 3)])
def test_the_facing_on_reentry(line, facing):
    assert parse_orders(line, FULL).standing.reenter_facing == facing


def test_a_facing_that_is_not_a_compass_point_is_an_error():
    assert "is not a facing" in only_error(parse_orders("REENTER FACING UP", FULL)).message


# --- fire orders -------------------------------------------------------------------------------

def test_the_main_laser_may_be_named_for_every_register():
    assert parse_orders("FIRE 1-5: MAIN LASER", FULL).standing.fire == dict.fromkeys(range(1, 6), MAIN_LASER)


def test_a_weapon_the_robot_does_not_have_is_an_error_not_dropped():
    err = only_error(parse_orders("1 2 3 4 5\nFIRE 3: Rear-Firing Laser", FULL))
    assert err.line == 2
    assert err.message == "your robot has no weapon called 'rear-firing laser' (it has: main laser)"


def test_an_option_weapon_may_be_chosen_per_register():
    ctx = OrderContext(hand=HAND, options=("Rear-Firing Laser", "Mini Howitzer"))
    result = parse_orders("FIRE ALL: laser\nFIRE 2, 4: mini howitzer", ctx)
    assert result.ok
    assert result.standing.fire == {1: MAIN_LASER, 2: "Mini Howitzer", 3: MAIN_LASER, 4: "Mini Howitzer",
                                    5: MAIN_LASER}
    err = only_error(parse_orders("FIRE 2: rear firing laser", ctx))   # it fires with the main laser, always
    assert err.message == ("Rear-Firing Laser is not a weapon: FIRE orders name a weapon "
                           "(yours: main laser, Mini Howitzer)")


def test_two_weapons_for_one_register_contradict():
    ctx = OrderContext(hand=HAND, options=("Mini Howitzer",))
    err = only_error(parse_orders("FIRE a-c: laser\nFIRE b: mini howitzer", ctx))
    assert err.line == 2 and "register 2 already fires main laser" in err.message


def test_fire_without_a_weapon_shows_the_form():
    assert "FIRE <registers>: <weapon>" in only_error(parse_orders("FIRE 1-5", FULL)).message


# --- commands, prose, strictness ---------------------------------------------------------------

def test_help_status_and_cards_are_commands_answered_once_each():
    result = parse_orders("help\nSTATUS\nCards please\nHELP!", FULL)
    assert result.ok and result.commands == ["help", "status", "cards"]


def test_prose_outside_a_block_is_skipped_and_reported():
    result = parse_orders("Hi GM,\nhere goes:\nFWD2 670, FWD1 500, LF90 90, RT90 80, UTRN 10\nRight, good luck!", FULL)
    assert result.program == FIVE
    assert result.ignored == [(1, "Hi GM,"), (2, "here goes:"), (4, "Right, good luck!")]


def test_inside_a_block_every_line_must_be_an_order():
    result = parse_orders([(3, "Hi GM,"), (4, "1 2 3 4 5")], FULL, strict=True)
    assert [e.line for e in result.errors] == [3]


def test_prose_that_mentions_an_order_is_an_error_not_ignored():
    err = only_error(parse_orders("1 2 3 4 5\nI think I will reboot", FULL))
    assert err.line == 2 and "mentions REBOOT" in err.message


@pytest.mark.parametrize("prose", ["see you in 3 days", "2 more flags to go.", "A.", "A. Miller",
                                   "+49 30 1234567", "Tel. 0171 1234567", "12 Main Street", "Hauptstraße 12",
                                   "10115 Berlin", "Get Outlook for iOS<https://aka.ms/o0ukef>"])
def test_prose_with_numbers_or_an_initial_is_skipped_and_listed(prose):
    result = parse_orders(f"1 2 3 4 5\n{prose}", FULL)
    assert result.ok and result.program == FULL.hand[:5]
    assert result.ignored == [(2, prose)]


@pytest.mark.parametrize("typo", ["FWD2 670, LFT 90, 3, 4, 5", "I'll play 3, 4, 5, 1, 2", "1 2 3 4 X5"])
def test_a_line_that_reads_as_a_broken_program_is_an_error(typo):
    err = only_error(parse_orders(typo, FULL))
    assert err.line == 1


def test_a_malformed_begin_line_gets_the_form_of_a_good_one():
    assert "BEGIN RR-7 Twonky TURN 4" in only_error(parse_orders("BEGIN RR-7", FULL)).message


def test_a_very_long_line_is_refused_unread():
    err = only_error(parse_orders("1 " * 1000, FULL))
    assert "too long" in err.message


def test_a_mail_with_hundreds_of_lines_to_read_is_refused_unread():
    err = only_error(parse_orders("1 2 3 4 5\n" * 600, FULL))
    assert err.line == 501 and "600 lines to read" in err.message


def test_errors_are_capped_with_a_count_of_the_rest():
    result = parse_orders("\n".join(["FWD2 999"] * 40), FULL)
    assert len(result.errors) == 26
    assert result.errors[-1].message == "... and 15 more errors"


def test_the_draft_keeps_what_was_understood_for_a_template():
    ctx = OrderContext(hand=HAND, locked={5: cards("UTRN 20")[0]})
    result = parse_orders("1: FWD2 670\n2: FWD2 999\n3: 3", ctx)
    assert not result.ok
    assert result.draft == {1: HAND[0], 3: HAND[2], 5: cards("UTRN 20")[0]}


def test_standing_orders_merge_over_earlier_ones():
    earlier = parse_orders("REBOOT\nSACRIFICE AT HP 4\nFIRE 1-5: laser", FULL).standing
    later = parse_orders("NO REBOOT\nON TWO WRENCHES: OPTION", FULL).standing
    merged = earlier.merged(later)
    assert (merged.power_down, merged.sacrifice_at, merged.two_wrenches) == (False, 4, "option")
    assert merged.fire == dict.fromkeys(range(1, 6), MAIN_LASER)


def test_standing_orders_survive_a_trip_through_json():
    ctx = OrderContext(hand=HAND, options=("Mini Howitzer",))
    said = parse_orders("REBOOT\nSACRIFICE NEVER\nON TWO WRENCHES: OPTION\nREENTER FACING S\nFIRE 2: mini howitzer",
                        ctx).standing
    assert StandingOrders.from_dict(json.loads(json.dumps(said.to_dict()))) == said
    assert StandingOrders().to_dict() == {}
    assert StandingOrders.from_dict({"sacrifice_at": "6", "reenter_facing": 7, "fire": {"9": "x"}}) == StandingOrders()


def test_five_hand_positions_written_without_spaces_are_a_program():
    """A player in a hurry types 1,2,3,4,5: the first five cards of the hand, in order."""
    hand = [parse_card(c) for c in ("FWD2 670", "RT90 80", "FWD1 490", "RVS1 430", "UTRN 10", "LF90 70")]
    result = parse_orders("1,2,3,4,5", OrderContext(hand=hand))
    assert not result.errors
    assert [str(r.card) for r in result.registers] == ["FWD2 670", "RT90 80", "FWD1 490", "RVS1 430", "UTRN 10"]


def test_a_refused_program_keeps_what_was_read_for_the_template():
    six = parse_orders("FWD2 670, RT90 80, FWD1 500, RVS1 430, UTRN 10, 8", FULL)
    assert six.registers is None and "you listed 6 cards" in six.errors[0].message
    assert list(six.draft.values()) == cards("FWD2 670", "RT90 80", "FWD1 500", "RVS1 430", "UTRN 10")
    mixed = parse_orders("1: FWD2 670\nRT90 80, FWD1 500", FULL)
    assert mixed.registers is None and mixed.draft == {1: cards("FWD2 670")[0]}
