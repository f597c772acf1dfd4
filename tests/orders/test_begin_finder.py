"""One finder of BEGIN GM lines, for the intake (is this a GM mail?) and the GM language (the block).

Each case below is one an earlier copy of the finder handled: quoted lines never count (the GM
language's), leading spaces and any case (the intake's), invisible characters and odd spaces as a
mail converted from HTML has them (the order extractor's).

Rulings cited (docs/rulings.md): 20.i1.
"""

from referee.gm.language import begin_key, find_block, parse_block
from referee.orders.extract import find_gm_begin

NBSP, ZWSP = "\u00a0", "\u200b"


def test_a_plain_block_names_its_game_and_key():
    header = find_gm_begin("BEGIN GM RR-7 key s3cret\nPAUSE\nEND\n")
    assert header is not None and (header.index, header.game, header.key) == (0, "RR-7", "s3cret")


def test_the_key_may_stand_before_the_game_and_words_are_any_case():
    header = find_gm_begin("hello\nbegin gm KEY s3cret rr-8\nPAUSE\nend\n")
    assert header is not None and (header.index, header.game, header.key) == (1, "rr-8", "s3cret")


def test_leading_spaces_and_tabs_do_not_matter():
    assert find_gm_begin("Orders:\n   \t BEGIN GM RR-7 key s3cret\nPAUSE\nEND\n") is not None


def test_a_quoted_begin_gm_line_never_counts():
    quoted = "> BEGIN GM RR-7 key s3cret\n> PAUSE\n> END\n"
    assert find_gm_begin(quoted) is None
    assert find_gm_begin(">> begin gm RR-7 key s3cret\n") is None
    assert find_block(quoted) == (False, None, None, [])


def test_a_mail_converted_from_html_is_read_as_typed():
    body = f"{NBSP}{NBSP}BEGIN{NBSP}GM{NBSP}RR-7 key{NBSP}s3cret{ZWSP}\r\nPAUSE{NBSP}\r\nEND\r\n"
    header = find_gm_begin(body)
    assert header is not None and (header.game, header.key) == ("RR-7", "s3cret")
    block = parse_block(body)
    assert block.found and block.game == "RR-7" and [c.name for c in block.commands] == ["pause"]


def test_begin_without_gm_or_with_gm_glued_on_is_not_a_gm_block():
    assert find_gm_begin("BEGIN RR-7 Twonky turn 4 key abc\n1: FWD2 670\nEND\n") is None
    assert find_gm_begin("BEGIN GMT RR-7\n") is None


def test_the_key_is_read_the_same_way_by_the_intake_and_the_gm_language():
    body = "Hi\n> BEGIN GM RR-7 key old\n\n  Begin GM RR-7 key new\nSTART\nEND\n"
    assert begin_key(body) == "new"
    found, game, key, lines = find_block(body)
    assert (found, game, key) == (True, "RR-7", "new")
    assert lines == [(5, "START")]


def test_the_block_skips_quoted_lines_and_ends_at_end():
    body = "BEGIN GM RR-7 key k\nPAUSE\n> RESUME\nEND\nSTART\n"
    found, _, _, lines = find_block(body)
    assert found and lines == [(2, "PAUSE")]
