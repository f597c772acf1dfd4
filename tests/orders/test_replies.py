"""The referee's answers: the echo of accepted orders, the rejection with its template, HELP, limits."""

from datetime import UTC, datetime, timedelta

from referee.orders import (
    MAIN_LASER,
    OrderContext,
    ReplyLimiter,
    StandingOrders,
    format_time_left,
    help_text,
    read_orders,
    render_cards,
    render_echo,
    render_rejection,
    render_unreadable,
    vocabulary_of,
)
from referee.orders.replies import standing_lines

from .helpers import DAMAGED, DAMAGED_HAND, FULL, HAND, program

GAME = {"game": "RR-7", "robot": "Twonky", "turn": 4}


def test_the_echo_shows_the_program_with_locked_registers_marked():
    regs = program("FWD1 490", "FWD3 790", "RT90 100", "LF90 70", "UTRN 20")
    text = render_echo(**GAME, registers=regs, locked=DAMAGED.locked, standing=StandingOrders(power_down=True),
                       time_left="2 days 4 hours")
    lines = text.splitlines()
    assert lines[0] == "Orders accepted for Twonky (game RR-7, turn 4)."
    block = lines[lines.index("BEGIN RR-7 Twonky turn 4"):lines.index("END") + 1]
    assert block[1:6] == ["1: FWD1 490", "2: FWD3 790", "3: RT90 100", "4: LF90 70 (locked)", "5: UTRN 20 (locked)"]
    assert "REBOOT" in block and "SACRIFICE AT HP 6" in block and "ON TWO WRENCHES: REPAIR" in block
    assert "Time left: 2 days 4 hours." in lines


def test_the_echo_parses_back_to_the_same_orders():
    regs = program("FWD1 490", "FWD3 790", "RT90 100", "LF90 70", "UTRN 20")
    standing = StandingOrders(power_down=False, sacrifice_at=3, two_wrenches="option", reenter_facing=2,
                              fire=dict.fromkeys(range(1, 6), MAIN_LASER))
    for vocabulary in ("report", "postal"):
        text = render_echo(**GAME, registers=regs, locked=DAMAGED.locked, standing=standing, vocabulary=vocabulary)
        found, result = read_orders(text, DAMAGED, **GAME)
        assert result.ok, result.errors
        assert found.header is not None
        assert result.program == regs
        assert result.standing == standing


def test_the_echo_can_speak_postal():
    text = render_echo(**GAME, registers=program("FWD2 670", "FWD1 500", "LF90 90", "RT90 80", "UTRN 10"),
                       vocabulary="postal")
    assert "1: Move-2 P670" in text and "3: Left P90" in text and "5: U-Turn P10" in text


def test_the_echo_lists_the_lines_it_skipped_and_the_notes():
    _, result = read_orders("Hi GM,\n1 2 3 4 5\nCheers", FULL)
    text = render_echo(**GAME, registers=result.program, ignored=result.ignored, notes=["1 attachment not read"])
    assert "  line 1: Hi GM," in text and "  line 3: Cheers" in text
    assert "  - 1 attachment not read" in text


def test_standing_orders_alone_are_echoed_with_the_hand_to_program_from():
    text = render_echo(**GAME, registers=None, standing=StandingOrders(sacrifice_at=2), hand=HAND)
    assert "There is no program on file yet" in text
    assert "SACRIFICE AT HP 2" in text
    assert "# your hand:  1  FWD2 670" in text


def test_a_rejection_lists_each_error_with_its_line_then_a_template():
    _, result = read_orders("1: FWD2 670\n2: FWD2 999\n3: 3\n4: 3\n5: 5", FULL)
    text = render_rejection(result.errors, **GAME, key="8f3k2q", context=FULL, draft=result.draft,
                            standing=result.standing)
    lines = text.splitlines()
    assert "  line 2: 2: FWD2 999" in lines
    assert "  line 4: 4: 3" in lines
    assert "Nothing in this mail was taken, so your earlier orders, if any, still stand." in lines
    block = lines[lines.index("BEGIN RR-7 Twonky turn 4 key 8f3k2q"):lines.index("END") + 1]
    # what was understood is filled in; the registers in error are left blank to fill
    assert [x for x in block if x[:2] in ("1:", "2:", "3:", "4:", "5:")] == \
        ["1: FWD2 670", "2:", "3: LF90 90", "4:", "5: UTRN 10"]  # no trailing spaces (RFC 3676)


def test_the_template_once_filled_in_is_accepted():
    _, result = read_orders("1: FWD2 670\n2: FWD2 999\n3: 3", OrderContext(hand=HAND))
    text = render_rejection(result.errors, **GAME, context=FULL, draft=result.draft)
    filled = text.replace("\n2:\n", "\n2: FWD1 500\n").replace("\n4:\n", "\n4: 4\n").replace("\n5:\n", "\n5: 5\n")
    _, again = read_orders(filled, FULL, **GAME)
    assert again.ok, again.errors
    assert again.program == program("FWD2 670", "FWD1 500", "LF90 90", "RT90 80", "UTRN 10")


def test_the_template_shows_the_hand_positions_and_the_locked_cards():
    text = render_rejection([], **GAME, context=DAMAGED, vocabulary="postal")
    assert "# your hand:  1  Move-3 P790    2  Right P100     3  Move-1 P490" in text
    assert "4: Left P70 (locked)" in text and "5: U-Turn P20 (locked)" in text


def test_a_rejection_for_a_quoted_block_says_how_to_send_it():
    text = render_rejection([], **GAME, context=FULL, quoted_block=True)
    assert "quoted lines" in text and "without the \">\" marks" in text


def test_the_unreadable_mail_answer_gives_the_reason():
    text = render_unreadable("the mail has no text")
    assert text.startswith("Your mail could not be read: the mail has no text.")


def test_cards_resends_the_hand_with_locked_registers():
    text = render_cards(**GAME, hand=DAMAGED_HAND, locked=DAMAGED.locked)
    assert "1  FWD3 790" in text and "register 4 is locked with LF90 70" in text


def test_help_explains_both_vocabularies_the_block_and_every_order():
    text = help_text()
    for word in ("FWD2 670", "Move-2 P670", "BEGIN", "END", "REBOOT", "NO REBOOT", "SACRIFICE AT HP",
                 "ON TWO WRENCHES", "REENTER FACING", "FIRE", "HELP", "STATUS", "CARDS", "locked"):
        assert word in text
    assert max(len(line) for line in text.splitlines()) <= 80


def test_the_help_examples_are_valid_orders():
    example = "FWD2 670, FWD1 500, 7, 4, LF90"
    assert example in help_text()
    _, result = read_orders(example, FULL)
    assert result.program == program("FWD2 670", "FWD1 500", "RVS1 430", "RT90 80", "LF90 90")


def test_the_answer_speaks_the_players_vocabulary():
    assert vocabulary_of("a) Move-2 P670\nb) Left P90") == "postal"
    assert vocabulary_of("1: FWD2 670\n2: LF90 90") == "report"
    assert vocabulary_of("1 2 3 4 5") == "report"


def test_time_left_reads_like_a_person_would_say_it():
    now = datetime(2025, 3, 4, 10, 0, tzinfo=UTC)
    assert format_time_left(now + timedelta(days=2, hours=4, minutes=5), now) == "2 days 4 hours"
    assert format_time_left(now + timedelta(days=1), now) == "1 day"
    assert format_time_left(now + timedelta(hours=3, minutes=12), now) == "3 hours 12 minutes"
    assert format_time_left(now + timedelta(minutes=1, seconds=30), now) == "1 minute"
    assert format_time_left(now + timedelta(seconds=20), now) == "less than a minute"
    assert format_time_left(now - timedelta(seconds=1), now) == "none: the deadline has passed"


def test_error_replies_are_limited_per_sender_within_a_window():
    limiter = ReplyLimiter(limit=3, window=3600)
    assert [limiter.allow("bob@example.com", t) for t in (0, 10, 20, 30)] == [True, True, True, False]
    assert limiter.allow("alice@example.com", 30)          # another sender has a count of its own
    assert not limiter.allow("BOB@example.com", 3599)       # the same address, whatever the case
    assert limiter.allow("bob@example.com", 3600)           # the first reply has left the window


def test_the_limiter_forgets_quiet_senders():
    limiter = ReplyLimiter(limit=1, window=60)
    limiter.allow("bob@example.com", 0)
    limiter.forget_old(30)
    assert not limiter.allow("bob@example.com", 30)
    limiter.forget_old(61)
    assert limiter._sent == {}


def test_an_option_choice_on_two_wrenches_is_echoed_as_given():
    """The option deck exists (issue 16): choosing an option on two wrenches is echoed with no caveat."""
    lines = standing_lines(StandingOrders(two_wrenches="option"))
    assert "ON TWO WRENCHES: OPTION" in lines
    assert not any("option deck" in line for line in lines)
