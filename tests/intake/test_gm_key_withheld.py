"""A GM's key is kept only as a digest (docs/gm.md; issue 41): the stored mail and the answer carry a mark with
the first characters of its SHA-256 digest where the key was, however the mail was encoded."""

from __future__ import annotations

import hashlib
from email.message import EmailMessage
from email.utils import make_msgid

import pytest

from referee.intake.redact import mark, without_key

from .helpers import GM, GM_SECRET, REFEREE, incoming, mail, outbox, text_of
from .stored import deliver, quiet  # noqa: F401  (the fixture)
from .test_community import T0

BLOCK = f"Hi,\n\nBEGIN GM key {GM_SECRET}\nNEWGAME KW-1 COURSE sprint\nSTATUS\nEND\n\nThanks,\nGus\n"


def encoded(cte: str) -> bytes:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = GM, REFEREE, "commands"
    msg["Message-ID"] = make_msgid(domain="gm.example.test")
    msg.set_content(BLOCK, cte=cte)
    return bytes(msg)


@pytest.mark.parametrize("raw", [mail(GM, BLOCK), encoded("base64"), encoded("quoted-printable")],
                         ids=["plain", "base64", "quoted-printable"])
def test_the_gm_key_is_not_kept_in_the_stored_mail_nor_in_the_answer(store, quiet, raw):  # noqa: F811
    deliver(store, quiet, raw, now=T0)
    (stored,) = incoming(store)
    assert stored.outcome == "accepted"
    body = text_of(stored.raw)   # the text as decoded from its transfer encoding
    assert GM_SECRET.encode() not in stored.raw and GM_SECRET not in body
    digest = hashlib.sha256(GM_SECRET.encode()).hexdigest()[:12]
    assert f"BEGIN GM key [GM key withheld, sha256 {digest}]" in body
    (answer,) = outbox(store, kind="gm_answer")
    assert GM_SECRET.encode() not in answer.raw and "game KW-1 created" in text_of(answer.raw)


def test_short_words_are_never_taken_for_a_key():
    raw = mail(GM, "BEGIN GM key abc\nSTATUS\nEND\n")
    assert without_key(raw, "abc") == raw
    assert mark("gm-secret-42") == mark(" gm-secret-42 ") != mark("gm-secret-43")
