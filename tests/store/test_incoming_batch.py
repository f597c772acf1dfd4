"""The poller's batch store agrees with ``record_incoming``: the same fields read, the same dedupe."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import select, text

from referee.store.incoming_batch import header_fields, record_batch
from referee.store.mail import header_text, parsed_headers, record_incoming
from referee.store.mail_models import IncomingMail

NOW = datetime(2026, 3, 1, 12, tzinfo=UTC)


def incoming(store) -> list[IncomingMail]:
    with store.read() as s:
        return list(s.scalars(select(IncomingMail).order_by(IncomingMail.id)))

NAMES = ["Message-ID", "message-id", "MESSAGE-ID", "From", "from", "Subject", "SUBJECT", "To", "X-Thing", "",
         "From ", "Subject ", "Bad Name", "From:x"]
header_lines = st.one_of(
    st.tuples(st.sampled_from(NAMES), st.sampled_from([":", ": ", ":\t", " :"]),
              st.text(st.characters(max_codepoint=255), max_size=40))
    .map(lambda t: f"{t[0]}{t[1]}{t[2]}"),
    st.text(st.sampled_from(" \tabc:<>@.\x0b\x1c"), max_size=12),          # continuations and debris
    st.sampled_from(["From alice@example.test Mon Jan  1 00:00:00 2026", ":no name", " folded", "\tfolded"]),
)


@settings(max_examples=400, deadline=None)
@given(lines=st.lists(header_lines.map(lambda x: x.replace("\r", "").replace("\n", "")), max_size=12),
       newline=st.sampled_from(["\r\n", "\n"]), mixed=st.lists(st.sampled_from(["\r\n", "\n"]), min_size=14),
       body=st.sampled_from(["", "body\r\n", "Subject: in the body\n", "\nSubject: after a second blank line\n"]))
def test_the_fast_header_reader_agrees_with_the_stores(lines, newline, mixed, body):
    """Whatever the header lines and line ends (one kind, or mixed line by line)."""
    ends = [newline] * 14 if mixed[0] == "\n" else mixed
    text = "".join(line + end for line, end in zip(lines, ends, strict=False)) + ends[len(lines)] + body
    raw = text.encode("utf-8", "surrogateescape")
    headers = parsed_headers(raw)
    expected = (header_text(headers, "Message-ID", 998), header_text(headers, "From", 2000),
                header_text(headers, "Subject", 2000))
    assert header_fields(raw) == expected


def mails(*specs: tuple[int | None, str]) -> list[tuple[int | None, bytes, datetime]]:
    return [(uid, f"From: a@example.test\r\n{head}\r\n\r\nbody\r\n".encode(), NOW) for uid, head in specs]


@pytest.mark.parametrize("fast", [True, False], ids=["batch", "one-by-one"])
def test_a_batch_is_deduplicated_like_record_incoming(store, fast):
    with store.write() as s:
        record_incoming(s, mails((1, "Message-ID: <old@x>"))[0][1], source="imap", mailbox="m", uidvalidity=7, uid=1)
        record_incoming(s, b"From: a@example.test\r\n\r\nno id\r\n", source="stdin")
    batch = mails((1, "Message-ID: <other@x>"),        # known by its IMAP identity
                  (2, "Message-ID: <old@x>"),          # known by its Message-ID
                  (3, "Message-ID: <new@x>"),
                  (4, "Message-ID: <new@x>"),          # twice in this batch
                  (5, "X-No-Id: 1"), (6, "X-No-Id: 1"))  # no Message-ID, same bytes twice
    batch.append((7, b"From: a@example.test\r\n\r\nno id\r\n", NOW))   # known by its bytes
    with store.write() as s:
        if fast:
            got = [(r.id, r.new) for r in record_batch(s, batch, source="imap", mailbox="m", uidvalidity=7)]
        else:
            got = []
            for uid, raw, at in batch:
                row, new = record_incoming(s, raw, source="imap", mailbox="m", uidvalidity=7, uid=uid, now=at)
                got.append((row.id, new))
    rows = incoming(store)
    assert len(rows) == 4   # old, no-id, new, and the X-No-Id one
    ids = [i for i, _ in got]
    assert [n for _, n in got] == [False, False, True, False, True, False, False]
    assert ids[0] == ids[1] == rows[0].id and ids[2] == ids[3] and ids[4] == ids[5] and ids[6] == rows[1].id
    new_row = next(r for r in rows if r.message_id == "<new@x>")
    assert (new_row.uid, new_row.from_addr, new_row.outcome, new_row.attempts) == (3, "a@example.test", "new", 0)


def test_a_batch_the_database_refuses_is_reported_mail_by_mail_not_raised(store):
    """PostgreSQL holds the mailbox name to its column's length (SQLite does not): every mail of the
    batch comes back refused, with the reason, and nothing is stored; the caller leaves them on the server."""
    mailbox = "imap://" + "x" * 400
    batch = mails((1, "Message-ID: <a@x>"), (2, "Message-ID: <b@x>"))
    with store.write() as s:
        got = record_batch(s, batch, source="imap", mailbox=mailbox, uidvalidity=7)
    if store.dialect == "postgresql":
        assert [(r.id, r.new) for r in got] == [(None, False), (None, False)]
        assert all("too long" in (r.error or "") for r in got)
        assert incoming(store) == []
    else:
        assert [r.new for r in got] == [True, True] and len(incoming(store)) == 2


def test_a_copy_in_the_batch_whose_uid_is_known_does_not_take_the_new_rows_id(store):
    """The first copy of a Message-ID comes under a UID stored already (another mail); the second copy
    is the one stored now. Each gets its own row, as mail by mail."""
    with store.write() as s:
        record_incoming(s, b"From: a@example.test\r\nMessage-ID: <old@x>\r\n\r\nbody\r\n", source="imap",
                        mailbox="m", uidvalidity=7, uid=5, now=NOW)
    with store.write() as s:
        got = record_batch(s, mails((5, "Message-ID: <twice@x>"), (6, "Message-ID: <twice@x>")), source="imap",
                           mailbox="m", uidvalidity=7)
    rows = incoming(store)
    assert [(m.uid, m.message_id) for m in rows] == [(5, "<old@x>"), (6, "<twice@x>")]
    assert [(r.id, r.new) for r in got] == [(rows[0].id, False), (rows[1].id, True)]


def test_a_batch_stores_each_value_exactly_as_the_orm_does(store):
    """The batch goes to the database driver directly: the same mail stored both ways reads back the
    same, down to the stored form of the time (an aware time in another zone, kept as UTC)."""
    at = datetime(2026, 3, 1, 14, 30, 5, 123456, tzinfo=timezone(timedelta(hours=2)))
    body = "From: Alice <alice@example.test>\r\nSubject: Re: turn 4\r\nMessage-ID: <{}@x>\r\n\r\norders\r\n"
    with store.write() as s:
        record_batch(s, [(1, body.format("one").encode(), at)], source="imap", mailbox="m", uidvalidity=7)
        record_incoming(s, body.format("two").encode(), source="imap", mailbox="m", uidvalidity=7, uid=2, now=at)
    columns = "source, mailbox, uidvalidity, size, from_addr, subject, received_at, outcome, attempts, moved_at"
    with store.read() as s:
        batch, orm = s.execute(text(f"SELECT {columns} FROM incoming_mails ORDER BY uid")).all()
        stored = s.scalars(select(IncomingMail).order_by(IncomingMail.uid)).all()
    assert batch == orm
    assert [m.received_at for m in stored] == [at, at] and stored[0].received_at.tzinfo == UTC
