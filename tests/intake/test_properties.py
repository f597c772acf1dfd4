"""Malformed mail through the whole pipeline (stored, then processed) never crashes it: every mail ends
recorded as accepted, rejected, ignored or unreadable, a known player always gets an answer, a stranger never does.

Mails are built from broken parts: odd or unknown charsets, damaged base64 and quoted-printable,
broken MIME structure, bare LFs and NULs, huge lines, empty bodies, stray BEGIN blocks.
"""

from __future__ import annotations

import base64
import os
import quopri

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from referee.common.config import Settings
from referee.intake.imap import poll_async
from referee.intake.maildir import ingest_bytes, make_maildir, poll_maildir
from referee.intake.process import process_pending
from referee.store.mail_models import IncomingMail, OutgoingMail

from .helpers import address, append, new_game, settings_for

SENDERS = [address("alice"), address("alice"), "Alice <ALICE@example.test>", "stranger@elsewhere.test",
           "MAILER-DAEMON@example.test", "", "<>", "=?utf-8?q?broken?= <@@>", "\x00@\x00", "\x01@\x7f",
           "alice@example.test (x", "ali\x00ce@example.test"]
header_text = st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\r\n"),
                      max_size=80)
KNOWN = {address("alice")}
CHARSETS = ["utf-8", "iso-8859-1", "windows-1252", "utf-16", "utf-7", "shift_jis", "koi8-r", "x-unknown", "",
            "unicode_escape", '"utf-8', "utf-8; format=flowed", "big5"]
ENCODINGS = ["7bit", "8bit", "base64", "quoted-printable", "x-uuencode", "garbage"]
WORDS = ["BEGIN", "END", "turn", "key", "FWD2 670", "REBOOT", "HELP", "STATUS", "CARDS", "1:", "a)", "Move-2 P670",
         ">", "-- ", "On Monday Bob wrote:", "FIRE ALL: LASER", "SACRIFICE AT HP 99", "\t", "\u00a0", "進め"]

texts = st.one_of(
    st.text(max_size=300),
    st.lists(st.sampled_from(WORDS), max_size=40).map(" ".join),
    st.lists(st.one_of(st.sampled_from(WORDS), st.text(max_size=12)), max_size=30).map("\n".join),
    st.just(""),
    st.integers(1000, 30000).map(lambda n: "1: FWD1 " + "9" * n),
)


@st.composite
def broken_mails(draw: st.DrawFn) -> tuple[str, bytes]:
    sender = draw(st.sampled_from(SENDERS))
    charset = draw(st.sampled_from(CHARSETS))
    encoding = draw(st.sampled_from(ENCODINGS))
    text = draw(texts)
    try:
        data = text.encode(charset.split(";")[0].strip('"') or "utf-8", "replace")
    except (LookupError, TypeError):
        data = text.encode("utf-8", "surrogatepass")
    if encoding == "base64":
        data = base64.encodebytes(data)
        if draw(st.booleans()):
            data = data[: draw(st.integers(0, len(data)))] + b"=*!"
    elif encoding == "quoted-printable":
        data = quopri.encodestring(data) + draw(st.sampled_from([b"", b"=", b"=Z9", b"=\r"]))
    elif draw(st.booleans()):
        data += draw(st.binary(max_size=200))
    ctype = draw(st.sampled_from(["text/plain", "text/html", "multipart/alternative", "multipart/mixed; boundary=",
                                  "multipart/mixed; boundary=\"b\"", "application/octet-stream", "text/plain;;;",
                                  "message/rfc822", ""]))
    head = [f"From: {sender}", "To: referee@example.test",
            f"Subject: {draw(header_text)}",
            f"Content-Type: {ctype}" + (f"; charset={charset}" if charset else ""),
            f"Content-Transfer-Encoding: {encoding}"]
    if draw(st.booleans()):
        head.append(f"Message-ID: <{draw(header_text)}@x>")
    head += draw(st.lists(st.sampled_from(["X-Stray: \x00\xff", "Received: from nowhere", "Auto-Submitted: no",
                                           " folded continuation", "NoColonHere", "Content-Type: text/plain",
                                           "References: <a@b> <c@d", "In-Reply-To: <<<>>>"]), max_size=3))
    if ctype.startswith("multipart"):
        data = (b"--b\r\nContent-Type: text/plain; charset=" + charset.encode("ascii", "replace") + b"\r\n\r\n" + data
                + draw(st.sampled_from([b"\r\n--b--\r\n", b"", b"\r\n--b\r\n", b"\r\n--c--"])))
    newline = draw(st.sampled_from(["\r\n", "\n"]))
    raw = newline.join(head).encode("utf-8", "surrogatepass") + newline.encode() * 2 + data
    return sender, raw


def outcomes(store) -> list[tuple[int, str]]:
    with store.read() as s:
        return [(m.id, m.outcome) for m in s.scalars(select(IncomingMail).order_by(IncomingMail.id))]


def answered(store, mail_id: int) -> int:
    with store.read() as s:
        return len(list(s.scalars(select(OutgoingMail.id).where(OutgoingMail.in_reply_to_id == mail_id))))


def answer_kinds(store, mail_id: int) -> list[str]:
    with store.read() as s:
        return list(s.scalars(select(OutgoingMail.kind).where(OutgoingMail.in_reply_to_id == mail_id)))


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                    HealthCheck.too_slow])
@given(mail=broken_mails())
def test_malformed_mail_never_crashes_the_pipeline(dovecot, db_url, store, mail):
    conf = settings_for(dovecot, db_url, error_replies_per_hour=100_000, answers_per_hour=100_000)
    if not outcomes(store):
        new_game(store)
    sender, raw = mail
    mail_id, new = ingest_bytes(store, raw)
    done = process_pending(store, conf)
    assert set(done.outcomes) <= {"accepted", "rejected", "ignored", "unreadable"}, done
    outcome = dict(outcomes(store))[mail_id]
    event(f"{outcome} from {'alice' if 'alice' in sender.lower() else 'another'}")
    assert outcome in ("accepted", "rejected", "ignored", "unreadable")
    if new and sender.strip().lower() not in KNOWN and "alice" not in sender.lower():
        # robots and nobodies are never answered; a stranger at most with the short note (or HELP)
        assert answered(store, mail_id) <= 1
        if answered(store, mail_id):
            assert outcome == "ignored" and set(answer_kinds(store, mail_id)) == {"stranger"}
    if new and sender == address("alice") and outcome not in ("ignored", "unreadable"):
        assert answered(store, mail_id) == 1      # a known player always hears back


async def test_malformed_mail_delivered_over_imap_is_taken_and_recorded(dovecot, settings, store):
    """A few nasty mails the real way: the server keeps them as they are, the referee records each."""
    new_game(store)
    nasty = [
        b"From: alice@example.test\r\nSubject: no body at all\r\n\r\n",
        b"From: alice@example.test\r\nContent-Type: multipart/mixed; boundary=zz\r\n\r\n--zz\r\n\r\n",
        b"From: alice@example.test\r\nContent-Type: text/plain; charset=x-klingon\r\n\r\n\xff\xfe\x00B\x00E\r\n",
        b"From: alice@example.test\r\nContent-Transfer-Encoding: base64\r\n\r\n!!!notbase64***\r\n",
        b"From: alice@example.test\r\n\r\n" + b"1: FWD1 " + b"7" * 20000 + b"\r\n",
        b"Subject: who am I\r\n\r\nBEGIN\r\nEND\r\n",
    ]
    await append(dovecot, nasty)
    await poll_async(settings, store)
    done = process_pending(store, settings)
    assert done.processed == len(nasty) and set(done.outcomes) <= {"rejected", "ignored"}
    assert all(outcome in ("rejected", "ignored") for _, outcome in outcomes(store))


NUL_IN_HEADER = (b"From: alice@example.test\r\nSubject: nul\x00here\r\nMessage-ID: <nul\x00id@client.example.test>\r\n"
                 b"\r\nHELP\r\n")


def test_a_mail_the_store_refuses_stays_where_it_is_and_does_not_hold_up_the_others(db_url, store, tmp_path):
    """A mail with a NUL in its headers (Dovecot turns NULs into 0x80, so it takes a Maildir or ``referee
    ingest`` to meet one) is stored like the rest of its batch and put away."""
    conf = Settings(database_url=db_url, transport="maildir", maildir_in=str(tmp_path / "in"))
    make_maildir(tmp_path / "in")
    for n, raw in enumerate([NUL_IN_HEADER, *(mail_from_alice(i) for i in range(3))]):
        (tmp_path / "in" / "new" / f"{n}.test").write_bytes(raw)
    report = poll_maildir(conf, store)
    with store.read() as s:
        stored = s.scalars(select(IncomingMail.subject)).all()
    assert sum("fine" in (subject or "") for subject in stored) == 3
    assert report.stored + report.refused == 4
    assert len(os.listdir(tmp_path / "in" / "new")) == report.refused
    assert report.refused == 0


def mail_from_alice(i: int) -> bytes:
    return f"From: alice@example.test\r\nSubject: fine {i}\r\nMessage-ID: <fine{i}@x>\r\n\r\nHELP\r\n".encode()


@pytest.mark.parametrize("dialect", ["postgresql"], indirect=True)
def test_a_nul_in_a_header_is_stored_on_postgresql(store):
    """The raw mail is kept as sent; the header copies used for lookups leave the NUL out."""
    mail_id, new = ingest_bytes(store, NUL_IN_HEADER)
    assert new
    with store.read() as s:
        stored = s.get(IncomingMail, mail_id)
        assert stored.raw == NUL_IN_HEADER
        assert stored.subject == "nulhere" and stored.message_id == "<nulid@client.example.test>"
