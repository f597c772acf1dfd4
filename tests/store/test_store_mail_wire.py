"""A turn's mails written once: the bytes queued are those the plain ``email`` serialiser writes.

Four players and the GM get the same pictures; each picture's MIME part is built once and its bytes
written once, and each mail is serialised once to find its Message-ID and its stored bytes. None of
that may change a byte of what is sent.
"""

from __future__ import annotations

import copy
import io
from email import policy
from email.message import EmailMessage

import pytest
from PIL import Image

from referee.render.mail import Attachment, Picture, turn_mail
from referee.render.tables import TurnReport
from referee.store import mail as m
from referee.store import outbox as ob
from referee.store.msgids import stamp
from referee.store.wire import wire_bytes

PLAYERS = ("twonky@example.test", "hammer@example.test", "zoom@example.test", "spin@example.test")


def png(size: int) -> bytes:
    out = io.BytesIO()
    Image.effect_noise((size, size), 64).convert("RGB").save(out, "PNG")  # noise: long base64 bodies
    return out.getvalue()


def turn_mails() -> list:
    """The five mails of one turn (four players, then the GM), built as the referee builds them."""
    pictures = [Picture(key, f"rr-7-t3-{key}.png", png(120)) for key in
                ("start", "stage1", "stage2", "end")]
    legend = Picture("legend", "rr-7-t3-legend.png", png(60))
    gif = Attachment("rr-7-t3.gif", png(100), "image", "gif")
    report = TurnReport(game="RR-7", turn=3, course="Sprint", columns=[], blocks=[])
    headers = {"Date": "Mon, 02 Mar 2026 12:05:00 +0000", "Auto-Submitted": "auto-generated"}
    return [turn_mail(report=report, pictures=pictures, gif=gif, legend=legend, sender="Referee <referee@example.test>",
                      recipient=who, subject="RR-7 turn 3 results", domain="example.test", headers=headers)
            for who in (*PLAYERS, "gm@example.test")]


def test_every_mail_of_a_turn_is_written_as_the_email_package_writes_it():
    mails = turn_mails()
    related = [next(p for p in msg.walk() if p.get_content_type() == "multipart/related") for msg in mails]
    parts = [list(r.iter_parts()) for r in related]
    assert [p.get_content_type() for p in parts[0]] == ["text/html", *["image/png"] * 5, "image/gif"]
    assert all(a is b for other in parts[1:] for a, b in zip(parts[0][1:], other[1:], strict=True))  # built once
    for msg in mails:
        assert wire_bytes(msg) == msg.as_bytes(policy=policy.SMTP)
        assert wire_bytes(msg) == msg.as_bytes(policy=policy.SMTP)  # and again, from the shared bytes


def test_a_queued_turn_mail_has_the_id_and_bytes_of_stamping_then_serialising(store):
    with store.write() as s:
        for msg in turn_mails():
            expected = copy.deepcopy(msg)
            expected_id = stamp(s, expected)
            row = ob.enqueue_mail(s, msg, kind="turn", now=None)
            assert row.message_id == expected_id
            assert row.raw == expected.as_bytes(policy=policy.SMTP)
            assert row.raw.count(b"Message-ID:") == 1 and expected_id.encode() in row.raw


def test_a_plain_reply_with_a_long_subject_is_queued_as_stamping_then_serialising_would(store):
    msg = EmailMessage()
    msg["From"] = "Referee <referee@example.test>"
    msg["To"] = "Zoom Player <zoom@example.test>"
    msg["Subject"] = "Re: orders for RR-7 turn 3 " + "with a subject long enough to be folded " * 3
    msg["Date"] = "Mon, 02 Mar 2026 12:05:00 +0000"
    msg["Message-ID"] = "<rr-7.t3.reply.abc@example.test>"
    msg.set_content("Your program for turn 3 is in: FWD2 670, LEFT 90, BACK 430, RIGHT 80, U-TURN 10.\n")
    with store.write() as s:
        expected = copy.deepcopy(msg)
        expected_id = stamp(s, expected)
        row = ob.enqueue_mail(s, msg, kind="reply")
        assert (row.message_id, row.raw) == (expected_id, expected.as_bytes(policy=policy.SMTP))


def test_a_body_with_mixed_line_ends_is_written_as_the_email_package_writes_it():
    for body in ("FWD2 670\r\nLEFT 90\rBACK 430\nRIGHT 80", "one line, no end", "ends\n\n", "\r\n"):
        msg = EmailMessage()
        msg["Subject"] = "orders"
        msg.set_payload(body)
        assert wire_bytes(msg) == msg.as_bytes(policy=policy.SMTP)


def test_a_turns_mails_queued_together_are_the_rows_queued_one_by_one(store):
    mails = turn_mails()
    later = copy.deepcopy(mails)  # the same mails, to queue again
    with store.write() as s:
        expected = []
        for msg in copy.deepcopy(mails):
            expected.append((stamp(s, msg), msg.as_bytes(policy=policy.SMTP)))
        rows = ob.enqueue_mails(s, [ob.Outgoing(msg, kind="turn", recipients=[str(msg["To"])]) for msg in mails])
        assert [(r.message_id, r.raw) for r in rows] == expected
        assert None not in [r.id for r in rows] and [r.id for r in rows] == sorted(r.id for r in rows)
        assert [r.recipients for r in rows] == [[who] for who in (*PLAYERS, "gm@example.test")]
        # the same mails again (a retried transaction): the rows already queued, nothing added
        again = ob.enqueue_mails(s, [ob.Outgoing(msg, kind="turn") for msg in later[:4]])
        assert [r.id for r in again] == [r.id for r in rows[:4]]
        assert ob.enqueue_mail(s, later[4], kind="turn").id == rows[4].id


def test_a_picture_is_written_as_the_email_package_writes_it_whatever_its_size():
    from referee.render.mail import _inline_part

    for size in (0, 1, 56, 57, 58, 114, 1000, 54_541):
        data = bytes(range(256)) * (size // 256) + bytes(range(size % 256))
        pic = Picture("stage1", "rr-7-t3-stage1.png", data)
        plain = EmailMessage()
        plain.set_content(data, "image", "png", cid="<rr-7.t3.stage1@example.test>", disposition="inline",
                          filename=pic.filename)
        built = _inline_part("<rr-7.t3.stage1@example.test>", pic)
        assert built.as_bytes(policy=policy.SMTP) == plain.as_bytes(policy=policy.SMTP)
        assert built.get_content() == data


def test_every_header_of_a_turn_mail_is_the_one_the_default_policy_makes_of_its_text():
    for msg in turn_mails():
        for part in msg.walk():
            for name, value in part.raw_items():
                made = policy.default.header_factory(name, str(value))
                assert type(made).__mro__[1:] == type(value).__mro__[1:]  # the same kind of header
                assert policy.SMTP.fold_binary(name, value) == policy.SMTP.fold_binary(name, made)


def test_the_installation_salt_is_the_one_stored_even_after_a_transaction_that_made_one_was_rolled_back(store):
    from referee.store.msgids import installation_salt

    with pytest.raises(RuntimeError), store.write() as s:
        lost = installation_salt(s)
        assert installation_salt(s) == lost  # the same within the transaction
        raise RuntimeError("rolled back")
    salts = []
    for _ in range(3):  # later transactions, on whatever connection the pool gives
        with store.write() as s:
            salts.append(installation_salt(s))
            assert m.get_state(s, "installation") == {"salt": salts[-1]}
    assert len(set(salts)) == 1 and salts[0] != lost
