"""Issue 30: one model of a reply. Its parts know where they came from, and the reading rules are stated
on them once: the new text wins, an echo or an answer is never orders, a quoted turn-mail form counts only
when the player changed it.

Rulings cited (docs/rulings.md): 18.8.
"""

from __future__ import annotations

from referee.orders import read_orders
from referee.orders.extract import body_lines, extract
from referee.orders.mailtext import read_mail
from referee.orders.replies import render_echo, render_rejection
from referee.orders.reply_model import Origin, Replied, parse_reply

from .helpers import FULL, HAND, program

GAME = {"game": "RR-7", "robot": "Twonky", "turn": 4}
BEGIN = "BEGIN RR-7 Twonky turn 4 key 8f3k2q"
ECHO = ("[referee answer 0123456789ab - not orders, do not send back]\n\n"
        + render_echo(**GAME, registers=program("FWD2 670", "FWD1 500", "LF90 90", "RT90 80", "UTRN 10"),
                      hand=HAND, key="8f3k2q"))
TURN_MAIL = f"Your hand:\n  1  FWD2 670\n\n{BEGIN}\n1:\n2:\n3:\n4:\n5:\nNO REBOOT\nEND\n"


def quoted(text: str) -> str:
    return "\n".join(f"> {line}" if line else ">" for line in text.split("\n"))


def test_thanks_to_an_acceptance_quotes_an_echo_which_is_never_orders():
    mail = f"Thanks!\n\nOn Tue, Referee wrote:\n{quoted(ECHO)}\n"
    reply = parse_reply(body_lines(mail))
    assert Origin.ECHO in reply.quoted_origins() and reply.form_to_read() is None
    assert not extract(mail, quoted_form=True).from_quote


def test_the_echo_is_known_by_the_mail_replied_to_even_with_its_marker_cut_off():
    echo_without_marker = ECHO.split("\n", 2)[2]
    mail = f"ok\n\n{quoted(echo_without_marker)}\n"
    assert extract(mail, quoted_form=True, replied=Replied.of_kind("echo", ECHO)).from_quote is False


def test_a_form_typed_into_the_quoted_turn_mail_is_read_and_an_untouched_one_is_not():
    filled = TURN_MAIL.replace("1:\n2:\n3:\n4:\n5:", "1: 1\n2: 2\n3: 3\n4: 4\n5: 5")
    replied = Replied.of_kind("turn_start", TURN_MAIL)
    assert extract(f"Here.\n\n{quoted(filled)}\n", quoted_form=True, replied=replied).from_quote
    assert not extract(f"HELP\n\n{quoted(TURN_MAIL)}\n", quoted_form=True, replied=replied).from_quote
    # without the mail replied to: a filled register is the change
    assert extract(f"Here.\n\n{quoted(filled)}\n", quoted_form=True).from_quote


def test_an_error_answers_template_counts_only_when_the_change_is_proved_against_it_as_sent():
    rejection = render_rejection([], **GAME, context=FULL, key="8f3k2q")
    filled = rejection.replace("1:\n2:\n3:\n4:\n5:", "1: 1\n2: 2\n3: 3\n4: 4\n5: 5")
    assert "1: 1\n" in filled
    mail = f"\n{quoted(filled)}\n"
    assert not extract(mail, quoted_form=True).from_quote
    assert extract(mail, quoted_form=True, replied=Replied.of_kind("rejection", rejection)).from_quote
    assert not extract(f"thanks\n{quoted(rejection)}\n", quoted_form=True,
                       replied=Replied.of_kind("rejection", rejection)).from_quote


def test_the_new_text_always_wins_over_a_filled_quoted_form():
    filled = TURN_MAIL.replace("1:\n2:\n3:\n4:\n5:", "1: 1\n2: 2\n3: 3\n4: 4\n5: 5")
    _, result = read_orders(f"9, 8, 7, 6, 5\n\n{quoted(filled)}\n", FULL, quoted_form=True)
    assert result.ok and [str(c) for c in result.program] == ["LF90 110", "FWD3 800", "RVS1 430", "FWD1 520",
                                                               "UTRN 10"]


def test_a_flowed_reply_keeps_an_old_forms_empty_register_lines_apart():
    old_form = TURN_MAIL.replace("1:\n2:\n3:\n4:\n5:", "1: \n2: \n3: \n4: \n5: ")
    raw = ("From: a@example.test\nTo: r@example.test\nSubject: Re\nMessage-ID: <x@y>\n"
           "Content-Type: text/plain; charset=utf-8; format=flowed\n\nHELP\n\n" + quoted(old_form) + "\n").encode()
    body = read_mail(raw).body
    assert "1: 2:" not in body
    _, result = read_orders(body, FULL, quoted_form=True)
    assert result.commands == ["help"] and not result.program_given


def test_forms_the_referee_writes_survive_being_quoted():
    for text in (ECHO, render_rejection([], **GAME, context=FULL), TURN_MAIL):
        assert not any(line.endswith(" ") for line in text.split("\n")), text
    assert "# as on file" in ECHO   # the echo's block carries its marker inside, too
