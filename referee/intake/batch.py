"""Storing a batch of fetched mails in a few statements, with the rules of ``record_incoming``.

:func:`referee.store.mail.record_incoming` takes one mail and costs about eight statements through
the ORM; a poll that stores a thousand mails that way spends twenty times longer in the database
than on the IMAP fetch. :func:`record_batch` does what ``record_incoming`` does for each mail of a
batch (the same Message-ID and sender read by the same functions, the same dedupe rules: IMAP
identity, then Message-ID, then the bytes of a mail without one; a mail repeated within the batch
counts once) with one query per rule, one multi-row INSERT and one UPDATE. Whenever the fast path
meets something unusual (another process inserting the same mail meanwhile, a value the database
refuses) it rolls back to a savepoint and stores the batch mail by mail with ``record_incoming``.

(This belongs in ``referee.store.mail`` beside ``record_incoming``; it lives here until it moves.)
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from email.utils import parseaddr
from typing import Any, cast

from sqlalchemy import Table, insert, select, update
from sqlalchemy.exc import DataError, IntegrityError
from sqlalchemy.orm import Session

from ..store.locking import require_write
from ..store.mail import _header_text, _headers, record_incoming
from ..store.models import IncomingMail


@dataclass
class Recorded:
    """What became of one mail of a batch."""

    #: the store row (new or found), None when the store refused this mail (see ``error``)
    id: int | None
    new: bool
    error: str | None = None


def record_batch(s: Session, mails: Sequence[tuple[int | None, bytes, datetime]], *, source: str,
                 mailbox: str | None = None, uidvalidity: int | None = None) -> list[Recorded]:
    """``record_incoming`` for each ``(uid, raw, received_at)``, in order. A mail the database refuses
    (e.g. PostgreSQL and a NUL in a header) gets ``Recorded(None, False, error)``; the others are stored."""
    require_write(s)
    if not mails:
        return []
    try:
        with s.begin_nested():
            return _fast(s, mails, source=source, mailbox=mailbox, uidvalidity=uidvalidity)
    except (IntegrityError, DataError):
        pass
    out: list[Recorded] = []
    for uid, raw, received in mails:
        try:
            with s.begin_nested():
                row, new = record_incoming(s, raw, source=source, mailbox=mailbox, uidvalidity=uidvalidity, uid=uid,
                                           now=received)
            out.append(Recorded(row.id, new))
        except DataError as exc:
            out.append(Recorded(None, False, str(exc.orig)))
    return out


def _fast(s: Session, mails: Sequence[tuple[int | None, bytes, datetime]], *, source: str, mailbox: str | None,
          uidvalidity: int | None) -> list[Recorded]:
    out: list[Recorded | None] = [None] * len(mails)
    conn = s.connection()   # plain Core statements: the ORM's bookkeeping costs more than the work here
    identity = mailbox is not None and uidvalidity is not None
    by_uid: dict[int, int] = {}
    if identity:
        uids = [u for u, _, _ in mails if u is not None]
        if uids:
            by_uid = {u: i for u, i in conn.execute(select(IncomingMail.uid, IncomingMail.id).where(
                IncomingMail.mailbox == mailbox, IncomingMail.uidvalidity == uidvalidity,
                IncomingMail.uid.in_(uids))) if u is not None}
    rows: list[dict[str, Any]] = []
    where: list[int] = []   # index in ``mails`` of each row to insert
    for i, (uid, raw, received) in enumerate(mails):
        if identity and uid is not None and uid in by_uid:
            out[i] = Recorded(by_uid[uid], False)
            continue
        message_id, from_header, subject = header_fields(raw)
        rows.append({"source": source, "mailbox": mailbox, "uidvalidity": uidvalidity, "uid": uid,
                     "message_id": message_id, "sha256": hashlib.sha256(raw).hexdigest(), "raw": raw,
                     "size": len(raw), "from_addr": (address_of(from_header).lower()[:320] or None) if from_header
                     else None, "subject": subject, "received_at": received, "outcome": "new", "attempts": 0})
        where.append(i)
    ids = [r["message_id"] for r in rows if r["message_id"] is not None]
    by_id: dict[str, int] = {m: i for m, i in conn.execute(select(IncomingMail.message_id, IncomingMail.id)
                                                            .where(IncomingMail.message_id.in_(ids)))
                             if m is not None} if ids else {}
    digests = [r["sha256"] for r in rows if r["message_id"] is None]
    by_digest: dict[str, int] = {}
    if digests:
        for digest, mail_id in conn.execute(select(IncomingMail.sha256, IncomingMail.id).where(
                IncomingMail.sha256.in_(digests), IncomingMail.message_id.is_(None)).order_by(IncomingMail.id)):
            by_digest.setdefault(digest, mail_id)
    fresh: list[dict[str, Any]] = []
    fresh_at: list[int] = []
    first: dict[tuple[str, object], int] = {}   # a mail repeated within the batch -> index of its first copy
    repeats: list[tuple[int, int]] = []
    for row, i in zip(rows, where, strict=True):
        key = ("id", row["message_id"]) if row["message_id"] is not None else ("sha", row["sha256"])
        found = by_id.get(row["message_id"]) if key[0] == "id" else by_digest.get(row["sha256"])
        if found is not None:
            out[i] = Recorded(found, False)
        elif key in first:
            repeats.append((i, first[key]))
        else:
            first[key] = i
            fresh.append(row)
            fresh_at.append(i)
    if fresh:
        table = cast(Table, IncomingMail.__table__)
        stmt = insert(table).returning(table.c.id, sort_by_parameter_order=True)
        new_ids: list[int] = list(conn.execute(stmt, fresh).scalars())
        for i, mail_id in zip(fresh_at, new_ids, strict=True):
            out[i] = Recorded(mail_id, True)
    for i, original in repeats:
        recorded = out[original]
        assert recorded is not None
        out[i] = Recorded(recorded.id, False)
    assert all(r is not None for r in out)
    return out  # type: ignore[return-value]


# -- the three header fields record_incoming reads, fast --------------------------------------------------
# ``record_incoming`` reads them with the standard library's compat32 header parser, then ``_header_text``.
# For the usual mail (a header block in printable ASCII, CRLF or LF line ends) the functions below give
# the same values in a fraction of the time, following the parser's rules (which lines are headers,
# where the block ends, envelope ``From `` lines, continuations); anything else goes to the parser
# itself. tests/intake/test_batch.py checks the two agree.
_HEAD_END = re.compile(rb"\r?\n\r?\n")
#: printable ASCII, tabs and line ends (CR only before LF): what the fast reader takes; the rest goes to the parser
_PLAIN_HEAD = re.compile(rb"(?:[\x20-\x7e\t\n]|\r\n)*")
_HEADER_RE = re.compile(r"^(From |[\041-\071\073-\176]*:|[\t ])")
_WANTED = {"message-id": ("Message-ID", 998), "from": ("From", 2000), "subject": ("Subject", 2000)}


def _head(raw: bytes) -> bytes:
    """The header block of a mail (the header parser reads the body line by line too, for nothing)."""
    end = _HEAD_END.search(raw)
    return raw[: end.end()] if end else raw


def header_fields(raw: bytes) -> tuple[str | None, str | None, str | None]:
    """(Message-ID, From, Subject) exactly as ``record_incoming`` reads them."""
    head = _head(raw)
    fast = _fast_fields(head) if _PLAIN_HEAD.fullmatch(head) else None
    if fast is not None:
        return fast
    headers = _headers(head)
    return (_header_text(headers, "Message-ID", 998), _header_text(headers, "From", 2000),
            _header_text(headers, "Subject", 2000))


def _fast_fields(head: bytes) -> tuple[str | None, str | None, str | None]:
    found: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in head.decode("ascii").split("\n"):
        line = line.removesuffix("\r")
        if not line or not _HEADER_RE.match(line):
            break  # the blank line, or a line that is not a header: the body starts
        if line[0] in " \t":
            if current is not None:
                current.append(line)
            continue
        current = None
        if line.startswith("From ") or line.startswith(":"):
            continue  # an envelope line, or a header without a name: never a header
        name, value = line.split(":", 1)
        key = name.lower()
        if key in _WANTED and key not in found:
            current = found[key] = [value]
    out = []
    for key, (_, limit) in _WANTED.items():
        text = " ".join("".join(found[key]).split())[:limit] if key in found else ""
        out.append(text or None)
    return out[0], out[1], out[2]


_ATOM = r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+"
_PLAIN_ADDRESS = re.compile(rf"{_ATOM}(?:\.{_ATOM})*@{_ATOM}(?:\.{_ATOM})*")
_NAMED_ADDRESS = re.compile(rf"[A-Za-z0-9 ]*<({_PLAIN_ADDRESS.pattern})>")


def address_of(from_header: str) -> str:
    """``parseaddr(from_header)[1]``, without parsing the usual shapes (``a@b``, ``Name <a@b>``)."""
    if _PLAIN_ADDRESS.fullmatch(from_header):
        return from_header
    m = _NAMED_ADDRESS.fullmatch(from_header)
    if m:
        return m.group(1)
    return parseaddr(from_header)[1]


def mark_moved_many(s: Session, ids: Sequence[int], now: datetime) -> None:
    """``mark_moved`` for many mails in one statement."""
    if ids:
        s.execute(update(IncomingMail).where(IncomingMail.id.in_(list(ids))).values(moved_at=now))
