"""An autoresponder that pastes the referee's answer back (unquoted, without the headers robots should
set) makes no loop: the answer's marker line tells it apart, and the same orders again are taken and
answered once. Twenty rounds of such a loop end with one answer."""

from __future__ import annotations

import re
from email.utils import make_msgid

from referee.intake.loops import before_marker, marker_line

from .helpers import address, block, hand, incoming, mail, new_game, outbox, program_lines, text_of
from .stored import deliver, quiet  # noqa: F401 (a fixture)

ALICE = address("alice")


def pasted_back(answer, *, keep_marker: bool = True) -> bytes:
    """What an autoresponder without auto headers sends: the answer's text, unquoted, as a reply to it."""
    text = text_of(answer.raw)
    if not keep_marker:
        text = text.split("\n", 2)[2]
    return mail(ALICE, text, subject=f"Re: {answer.subject}", msgid=make_msgid(domain="away.example.test"),
                headers={"In-Reply-To": answer.message_id, "References": answer.message_id})


def run_loop(store, settings, rounds: int, *, keep_marker: bool) -> None:
    code = new_game(store)
    deliver(store, settings, mail(ALICE, block(store, code, "Twonky", program_lines(hand(store, code, "Twonky")[:5]))))
    for _ in range(rounds):
        deliver(store, settings, pasted_back(outbox(store)[-1], keep_marker=keep_marker))


def test_twenty_rounds_of_an_answer_pasted_back_end_with_one_answer(store, quiet):  # noqa: F811
    run_loop(store, quiet, 20, keep_marker=True)
    (answer,) = outbox(store)
    assert "Orders accepted" in text_of(answer.raw)
    rows = incoming(store)
    assert [r.outcome for r in rows] == ["accepted"] + ["ignored"] * 20
    assert all("answer of the referee came back" in r.reason for r in rows[1:])


def test_without_its_marker_the_pasted_answer_is_known_by_its_first_line(store, quiet):  # noqa: F811
    run_loop(store, quiet, 20, keep_marker=False)
    assert len(outbox(store)) == 1
    assert all("answer of the referee came back" in r.reason for r in incoming(store)[1:])


def test_a_reply_written_above_a_pasted_answer_is_read(store, quiet):  # noqa: F811
    code = new_game(store)
    cards = hand(store, code, "Twonky")
    deliver(store, quiet, mail(ALICE, block(store, code, "Twonky", program_lines(cards[:5]))))
    answer = outbox(store)[-1]
    new_orders = block(store, code, "Twonky", program_lines(cards[4:9]))
    deliver(store, quiet, mail(ALICE, new_orders + "\n-----Original Message-----\n" + text_of(answer.raw),
                               headers={"In-Reply-To": answer.message_id}))
    assert [r.outcome for r in incoming(store)] == ["accepted", "accepted"]
    assert len(outbox(store)) == 2


def test_the_marker_is_read_only_unquoted():
    line = marker_line("<answer.1.1.echo.abc@example.test>")
    assert before_marker(f"hello\n{line}\nBEGIN ...") == "hello\n"
    assert before_marker(f"hello\n> {line}\n") is None


def test_an_answer_that_comes_back_as_it_was_sent_is_ignored(store, quiet):  # noqa: F811
    code = new_game(store)
    deliver(store, quiet, mail(ALICE, block(store, code, "Twonky", program_lines(hand(store, code, "Twonky")[:5]))))
    (answer,) = outbox(store)
    bounced = answer.raw   # a robot that keeps the Message-ID and drops the headers robots should read
    for name in (b"X-Loop:", b"Auto-Submitted:", b"X-Referee-Game:"):
        bounced = bounced.replace(name, b"X-Was-" + name)
    deliver(store, quiet, re.sub(rb"(?m)^From: .*$", f"From: {ALICE}\r".encode(), bounced, count=1))
    assert [r.outcome for r in incoming(store)] == ["accepted", "ignored"]
    assert "its own Message-ID" in incoming(store)[1].reason
    assert len(outbox(store)) == 1
