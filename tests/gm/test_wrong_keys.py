"""Wrong GM keys: each one is logged; the game master is told once a day (in the answer when the mail came
from the GM's address, else by a mail of its own), then the guesses go unanswered."""

from __future__ import annotations

import email
import logging
from email import policy

from referee.store.mail_models import OutgoingMail

from .conftest import GM


def test_keys_guessed_from_the_gm_address_get_one_answer_a_day_and_every_one_is_logged(gm, caplog):
    caplog.set_level(logging.WARNING, logger="referee.gm")
    answers = []
    for n in range(5):
        gm.later(seconds=1)
        answers.append(gm.mail(f"BEGIN GM key guess-{n}\nPAUSE\nEND\n"))
    assert all(not a.accepted for a in answers)
    assert answers[0].reply is not None and "for the next 24 hours they get no answer" in answers[0].reply
    assert [a.reply for a in answers[1:]] == [None] * 4
    counts = [r.getMessage() for r in caplog.records if "wrong GM key" in r.getMessage()]
    assert counts[-1] == f"wrong GM key from {GM}: 5 in the last 24 hours"
    gm.later(hours=24)
    assert gm.mail("BEGIN GM key guess-6\nPAUSE\nEND\n").reply is not None   # a new day: told again


def test_keys_guessed_from_another_address_are_told_to_the_gm_once(gm):
    for n in range(3):
        gm.later(seconds=1)
        answer = gm.mail(f"BEGIN GM key guess-{n}\nPAUSE\nEND\n", sender="mallory@example.test")
        assert answer.reply is None
    with gm.store.read() as s:
        told = [m for m in s.query(OutgoingMail) if m.recipients == [GM]]
    assert len(told) == 1
    body = email.message_from_bytes(told[0].raw, policy=policy.default).get_body(("plain",)).get_content()
    assert "mallory@example.test" in body and "change gm_secret" in body
