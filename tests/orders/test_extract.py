"""Finding the orders in a reply: the BEGIN ... END block, quotes, attributions and signatures."""

from referee.orders import NOTHING_FOUND, check_header, extract, read_orders
from referee.orders.extract import BlockHeader

from .helpers import FULL, program

FIVE = program("FWD2 670", "FWD1 500", "LF90 90", "RT90 80", "UTRN 10")

TURN_MAIL_QUOTED = """\
> Turn 4 of game RR-7. Your robot Twonky has 10 HP.
> Your hand: 1 FWD2 670, 2 FWD1 500, 3 LF90 90, 4 RT90 80, 5 UTRN 10, ...
>
> BEGIN RR-7 Twonky turn 4 key 8f3k2q
> 1:
> 2:
> END
"""


def texts(found):
    """The non-blank lines the parser will read."""
    return [text for _, text in found.lines if text.strip()]


def test_only_the_block_is_read_when_there_is_one():
    body = ("Hello referee, my orders follow. See you on turn 5!\n\n"
            "BEGIN RR-7 Twonky turn 4 key 8f3k2q\n1: FWD2 670\n2: 2\n3: 3\n4: 4\n5: 5\nREBOOT\nEND\n\n"
            "Cheers, 3 cheers even\n")
    found = extract(body)
    assert found.header == BlockHeader("RR-7", "Twonky", 4, "8f3k2q", line=3)
    assert texts(found) == ["1: FWD2 670", "2: 2", "3: 3", "4: 4", "5: 5", "REBOOT"]
    assert [n for n, _ in found.lines] == [4, 5, 6, 7, 8, 9]   # line numbers of the body


def test_a_reply_quoting_the_whole_turn_mail_with_a_block_works():
    body = ("BEGIN RR-7 Twonky turn 4 key 8f3k2q\nFWD2 670, FWD1 500, LF90 90, RT90 80, UTRN 10\nEND\n\n"
            "On Tue, 4 Mar 2025 at 10:00, Referee <ref@example.org> wrote:\n" + TURN_MAIL_QUOTED)
    _, result = read_orders(body, FULL, game="RR-7", robot="Twonky", turn=4, key="8f3k2q")
    assert result.ok and result.program == FIVE


def test_a_quoted_block_does_not_count_as_new_orders():
    # the player replied "thanks" above the quoted turn mail, whose template block is quoted
    body = "Thanks, will send later.\n\nOn Tue, Referee wrote:\n" + TURN_MAIL_QUOTED
    found, result = read_orders(body, FULL)
    assert found.header is None and not found.quoted_block  # the empty template: no hint about copying it
    assert [e.message for e in result.errors] == [NOTHING_FOUND]


def test_a_quoted_block_filled_in_is_not_read_but_flagged_for_the_hint():
    filled = TURN_MAIL_QUOTED.replace("> 1:\n> 2:", "> 1: FWD2 670\n> 2: 3")
    found, result = read_orders("On Tue, Referee wrote:\n" + filled, FULL)
    assert found.header is None and found.quoted_block
    assert [e.message for e in result.errors] == [NOTHING_FOUND]


def test_top_posted_orders_above_a_quoted_block_are_read_without_a_block():
    body = "1 2 3 4 5\nREBOOT\n\nOn Tue, Referee wrote:\n" + TURN_MAIL_QUOTED
    found, result = read_orders(body, FULL)
    assert found.header is None
    assert result.program == FIVE and result.standing.power_down is True


def test_quoted_lines_inside_a_block_are_not_read():
    found = extract("BEGIN\n1 2 3 4 5\n> REBOOT\nEND\n")
    assert texts(found) == ["1 2 3 4 5"]


def test_a_bottom_posted_block_after_the_quote_is_read():
    body = "On Tue, Referee wrote:\n" + TURN_MAIL_QUOTED + "\nBEGIN RR-7 Twonky turn 4\n1 2 3 4 5\nEND\n"
    found, result = read_orders(body, FULL)
    assert found.header is not None and found.header.turn == 4
    assert result.program == FIVE


def test_a_bottom_posted_reply_without_a_block_is_read_after_the_quote():
    body = "On Tue, Referee wrote:\n" + TURN_MAIL_QUOTED + "\n1 2 3 4 5\n"
    assert read_orders(body, FULL)[1].program == FIVE


def test_an_attribution_wrapped_over_two_lines_is_dropped():
    body = "1 2 3 4 5\n\nOn Tue, 4 Mar 2025 at 10:00, The Referee of game RR-7 <\nreferee@example.org> wrote:\n> x\n"
    found = extract(body)
    assert texts(found) == ["1 2 3 4 5"]


def test_an_unquoted_original_after_an_attribution_is_not_read():
    # some clients paste the original without "> ": it is our own mail, with a template block
    body = ("1 2 3 4 5\n\nOn Tue, Referee wrote:\nTurn 4 of game RR-7.\n"
            "BEGIN RR-7 Twonky turn 4 key 8f3k2q\n1:\nEND\n")
    found, result = read_orders(body, FULL)
    assert found.header is None
    assert result.program == FIVE


def test_an_outlook_original_is_never_read():
    body = ("3 1 5 2 4\n\n-----Original Message-----\nFrom: Referee\nSent: Tuesday\n"
            "BEGIN RR-7 Twonky turn 4 key 8f3k2q\n1: FWD2 670\nEND\n")
    found, result = read_orders(body, FULL)
    assert found.header is None
    assert result.program == program("LF90 90", "FWD2 670", "UTRN 10", "FWD1 500", "RT90 80")


def test_an_outlook_header_block_without_a_marker_line_also_ends_the_reply():
    body = "1 2 3 4 5\n________________________________\nFrom: Referee <ref@example.org>\nSent: Tuesday\n2 1 3 4 5\n"
    assert texts(extract(body)) == ["1 2 3 4 5"]


def test_a_signature_is_dropped():
    body = "1 2 3 4 5\n-- \nBob Smith\n+1 555 0100 (call 9 to 5)\n"
    found, result = read_orders(body, FULL)
    assert texts(found) == ["1 2 3 4 5"]
    assert result.ok and result.program == FIVE


def test_a_line_that_merely_ends_in_wrote_is_not_an_attribution():
    body = "Here is what I wrote:\n1 2 3 4 5\n"
    assert texts(extract(body)) == ["Here is what I wrote:", "1 2 3 4 5"]


def test_two_blocks_in_one_mail_are_an_error():
    found = extract("BEGIN RR-7 Twonky turn 4\n1 2 3 4 5\nEND\nBEGIN RR-7 Twonky turn 4\n5 4 3 2 1\nEND\n")
    assert len(found.errors) == 1
    assert found.errors[0].line == 4 and "2 BEGIN lines (lines 1, 4)" in found.errors[0].message


def test_a_block_without_end_runs_to_the_quote_with_a_note():
    found = extract("BEGIN RR-7 Twonky turn 4\n1 2 3 4 5\n\n> quoted\nmore\n")
    assert texts(found) == ["1 2 3 4 5"]
    assert found.notes == ["the BEGIN block on line 1 has no END line; read it up to line 3"]


def test_the_begin_line_may_name_a_robot_with_spaces_and_omit_the_key():
    found = extract("begin RR-7 Hulk X90 TURN 12\nend")
    assert found.header == BlockHeader("RR-7", "Hulk X90", 12, None, line=1)


def test_a_bare_begin_starts_a_block_that_names_nothing():
    found = extract("prose\nBEGIN\n1 2 3 4 5\nEND\nmore prose")
    assert found.header == BlockHeader(None, None, None, None, line=2)
    assert texts(found) == ["1 2 3 4 5"]


def test_orders_outside_a_block_are_not_read_but_noted():
    found, result = read_orders("BEGIN\n1 2 3 4 5\nEND\nREBOOT\n", FULL)
    assert result.ok and result.standing.power_down is None
    assert found.notes == ["only the BEGIN ... END block was read; the orders written outside it were not"]


def test_prose_outside_a_block_needs_no_note():
    found, result = read_orders("Hi GM,\nBEGIN\n1 2 3 4 5\nEND\nthanks\n", FULL)
    assert result.ok and found.notes == []


def test_prose_inside_a_block_is_an_error():
    _, result = read_orders("BEGIN\nHi GM\n1 2 3 4 5\nEND", FULL)
    assert [e.line for e in result.errors] == [2]


# --- the BEGIN line against the game, robot, turn and key ------------------------------------

HEADER = BlockHeader("RR-7", "Twonky", 4, "8f3k2q", line=3)


def test_a_matching_begin_line_passes_whatever_the_case():
    assert check_header(HEADER, game="rr-7", robot="TWONKY", turn=4, key="8F3K2Q") == []


def test_orders_for_an_earlier_turn_are_stale():
    errors = check_header(HEADER, game="RR-7", robot="Twonky", turn=5)
    assert len(errors) == 1 and errors[0].line == 3
    assert "turn 4, which is over" in errors[0].message and "stale" in errors[0].message


def test_orders_for_a_later_turn_are_refused():
    assert "turn 3 is being played" in check_header(HEADER, turn=3)[0].message


def test_another_game_or_robot_is_refused():
    errors = check_header(HEADER, game="RR-8", robot="Hammer Bot")
    assert [e.message for e in errors] == ["these orders are for game RR-7, but this is game RR-8",
                                           "these orders are for robot Twonky, but your robot is Hammer Bot"]


def test_a_wrong_key_is_refused_and_not_repeated_in_the_error():
    errors = check_header(HEADER, key="zzzzzz")
    assert [e.message for e in errors] == ["the key on this BEGIN line is not your key"]
    assert "8f3k2q" not in errors[0].text


def test_a_missing_key_is_refused_only_when_required():
    header = BlockHeader("RR-7", "Twonky", 4, None, line=1)
    assert check_header(header, key="8f3k2q") == []
    assert "has no key" in check_header(header, key="8f3k2q", require_key=True)[0].message


def test_read_orders_reports_a_stale_block_and_drops_the_program():
    body = "BEGIN RR-7 Twonky turn 3\n1 2 3 4 5\nEND\n"
    _, result = read_orders(body, FULL, game="RR-7", robot="Twonky", turn=4)
    assert result.registers is None
    assert "stale" in result.errors[0].message


# -- the filled-in quoted form (issue 18): read only when the caller vouches for the mail -------------------------
GMAIL_REPLY_FILLED = """\

On Mon, 23 Nov 2026 at 18:02, RoboRally referee <referee@example.org> wrote:
> Turn 4 of game RR-7. Your robot Twonky has 10 HP.
> Your hand: 1 FWD2 670, 2 FWD1 500, 3 LF90 90, 4 RT90 80, 5 UTRN 10, ...
>
> BEGIN RR-7 Twonky turn 4 key 8f3k2q
> 1: FWD2 670
> 2: FWD1 500
> 3: 3
> 4: RT90 80
> 5: UTRN 10
> END
>
> --
> RoboRally referee
"""


def test_a_filled_in_quoted_form_is_read_when_the_caller_allows_it():
    found, result = read_orders(GMAIL_REPLY_FILLED, FULL, game="RR-7", robot="Twonky", turn=4, key="8f3k2q",
                                quoted_form=True)
    assert found.from_quote and found.header == BlockHeader("RR-7", "Twonky", 4, "8f3k2q", line=6)
    assert result.ok and result.program == FIVE
    assert "read the order form you filled in within the quoted turn mail" in found.notes


def test_without_the_callers_word_the_filled_quote_stays_unread():
    found, result = read_orders(GMAIL_REPLY_FILLED, FULL)
    assert not found.from_quote and found.header is None and found.quoted_block
    assert [e.message for e in result.errors] == [NOTHING_FOUND]


def test_orders_of_the_players_own_and_two_filled_quotes_are_never_read_from_the_quote():
    own = "BEGIN RR-7 Twonky turn 4 key 8f3k2q\n1 2 3 4 5\nEND\n" + GMAIL_REPLY_FILLED
    found = extract(own, quoted_form=True)
    assert not found.from_quote and found.header is not None and found.header.line == 1
    twice = GMAIL_REPLY_FILLED + "> > BEGIN RR-7 Twonky turn 3 key 8f3k2q\n> > 1: FWD1 500\n> > END\n"
    assert not extract(twice, quoted_form=True).from_quote
    # the quoted empty template is no order form to read
    assert not extract("On Tue, Referee wrote:\n" + TURN_MAIL_QUOTED, quoted_form=True).from_quote
