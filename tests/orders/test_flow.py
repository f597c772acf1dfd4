"""Whole mails in, answers out: the path a real reply takes, and the player's guide kept honest."""

import re
from email.message import EmailMessage
from pathlib import Path

from referee.orders import loop_reason, read_mail, read_orders, render_echo, render_rejection, vocabulary_of

from .helpers import DAMAGED, FULL, program

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "orders.md"
GAME = {"game": "RR-7", "robot": "Twonky", "turn": 4}


def reply_to_turn_mail(body: str, html: str | None = None) -> bytes:
    msg = EmailMessage()
    msg["From"] = "Bob <bob@example.com>"
    msg["To"] = "referee@example.org"
    msg["Subject"] = "Re: RR-7 turn 4"
    msg["Message-ID"] = "<reply-1@example.com>"
    msg.set_content(body)
    if html is not None:
        msg.add_alternative(html, subtype="html")
    return msg.as_bytes()


def answer(raw: bytes, ctx=FULL) -> tuple[bool, str]:
    mail = read_mail(raw)
    assert mail.rejected is None and loop_reason(mail, "referee@example.org") is None
    found, result = read_orders(mail.body, ctx, **GAME, key="8f3k2q")
    vocabulary = vocabulary_of(mail.body)
    if result.ok:
        return True, render_echo(**GAME, registers=result.program, locked=ctx.locked, standing=result.standing,
                                 vocabulary=vocabulary, ignored=result.ignored, notes=found.notes + mail.notes)
    return False, render_rejection(result.errors, **GAME, key="8f3k2q", context=ctx, draft=result.draft,
                                   standing=result.standing, vocabulary=vocabulary, quoted_block=found.quoted_block)


def test_a_gmail_style_top_posted_reply_is_echoed():
    body = ("1: FWD2 670\n2: FWD1 500\n3: LF90 90\n4: RT90 80\n5: UTRN 10\n\nBob\n\n"
            "On Tue, 4 Mar 2025 at 10:00, Referee <referee@example.org> wrote:\n"
            "> Your hand: 1 FWD2 670 ...\n> BEGIN RR-7 Twonky turn 4 key 8f3k2q\n> 1:\n> END\n")
    ok, text = answer(reply_to_turn_mail(body))
    assert ok
    assert "1: FWD2 670\n2: FWD1 500\n3: LF90 90\n4: RT90 80\n5: UTRN 10\n" in text
    assert "line 7: Bob" in text   # the sign-off was skipped, and said so


def test_an_html_only_reply_from_a_phone_is_read():
    msg = EmailMessage()
    msg["From"] = "bob@example.com"
    msg.set_content("<div dir='ltr'>a) Move-2 P670<br>b) Move-1 P500<br>c) Left P90<br>d) Right P80<br>"
                    "e) U-Turn P10</div><div>REBOOT</div><blockquote>BEGIN RR-7 Twonky turn 4<br>END</blockquote>",
                    subtype="html")
    ok, text = answer(msg.as_bytes())
    assert ok
    assert "1: Move-2 P670" in text and "5: U-Turn P10" in text   # answered in the postal spelling
    assert "\nREBOOT\n" in text


def test_a_mistake_is_answered_with_the_errors_and_a_prefilled_template():
    ok, text = answer(reply_to_turn_mail("BEGIN RR-7 Twonky turn 4 key 8f3k2q\n1 2 3 4 4\nEND\n"))
    assert not ok
    assert "line 2: 1 2 3 4 4" in text and "RT90 80 is used twice" in text
    assert "BEGIN RR-7 Twonky turn 4 key 8f3k2q\n# your hand:" in text


def test_stale_orders_are_refused():
    ok, text = answer(reply_to_turn_mail("BEGIN RR-7 Twonky turn 3 key 8f3k2q\n1 2 3 4 5\nEND\n"))
    assert not ok and "stale" in text


def test_a_reply_that_only_quotes_the_template_gets_told_why_nothing_was_read():
    body = "OK!\n\nOn Tue, Referee wrote:\n> BEGIN RR-7 Twonky turn 4 key 8f3k2q\n> 1: 1\n> END\n"
    ok, text = answer(reply_to_turn_mail(body))
    assert not ok
    assert "I found no orders in this mail" in text and "without the \">\" marks" in text


# --- the player's guide ---------------------------------------------------------------------

def guide_blocks() -> list[str]:
    """The indented example blocks of docs/orders.md."""
    blocks, current = [], []
    for line in [*GUIDE.read_text().splitlines(), ""]:
        if line.startswith("    "):
            current.append(line[4:])
        elif current:
            blocks.append("\n".join(current))
            current = []
    return blocks


def test_the_guides_examples_are_valid_orders():
    blocks = guide_blocks()
    assert len(blocks) >= 5
    for block in blocks:
        ctx = DAMAGED if "Move-3 P790" in block else FULL
        _, result = read_orders(block, ctx, **GAME, key="8f3k2q")
        assert result.ok, (block, result.errors)


def test_the_guides_worked_examples_mean_what_it_says():
    text = GUIDE.read_text()
    assert re.search(r"FWD2 670, Move-1 P500, 7, 4, LF90", text)
    _, result = read_orders("FWD2 670, Move-1 P500, 7, 4, LF90", FULL)
    assert result.program == program("FWD2 670", "FWD1 500", "RVS1 430", "RT90 80", "LF90 90")
    _, result = read_orders("FWD2 670, RT90 80, FWD1, FWD1, UTRN 10\nPOWER DOWN", FULL)
    assert result.program == program("FWD2 670", "RT90 80", "FWD1 500", "FWD1 520", "UTRN 10")
    assert result.standing.power_down is True
