"""Storing a batch of fetched mails in a few statements, with the rules of ``record_incoming``.

:func:`referee.store.mail.record_incoming` takes one mail and costs about eight statements through
the ORM; a poll that stores a thousand mails that way spends twenty times longer in the database
than on the IMAP fetch. :func:`record_batch` does what ``record_incoming`` does for each mail of a
batch (the same Message-ID and sender read, the same dedupe rules: IMAP identity, then Message-ID,
then the bytes of a mail without one; a mail repeated within the batch counts once) with one
``INSERT ... ON CONFLICT DO NOTHING`` for the batch and look-ups only for the rows it skipped.
Whenever the fast path meets something unusual (a value the database refuses, a skipped row not
found) it rolls back to a savepoint and stores the batch mail by mail with ``record_incoming``.
:func:`mark_moved_many` marks many mails moved in one statement.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

from sqlalchemy import Connection, Table, bindparam, func, or_, select, update
from sqlalchemy.exc import DataError, DBAPIError, IntegrityError
from sqlalchemy.orm import Session

from ..mailparse.senders import sender_address
from ..mailparse.unreadable import why_unreadable
from .locking import require_write
from .mail import header_text, parsed_headers, record_incoming, stored_fields
from .mail_models import IncomingMail


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
    """One multi-row INSERT that skips every row a unique key refuses (the IMAP identity, the
    Message-ID), then a look-up for the skipped ones only: in the usual batch nothing is stored yet, so
    this costs a single statement. Mails without a Message-ID are deduplicated by their bytes first
    (no unique key holds those)."""
    out: list[Recorded | None] = [None] * len(mails)
    conn = s.connection()   # plain Core statements: the ORM's bookkeeping costs more than the work here
    rows: list[dict[str, Any]] = []
    for uid, raw, received in mails:
        try:
            message_id, from_header, subject = header_fields(raw)
            unreadable = why_unreadable(raw)
        except Exception:   # record_incoming's reader says why, and stores it as unreadable
            message_id, from_header, subject, unreadable = stored_fields(raw)
        rows.append({"source": source, "mailbox": mailbox, "uidvalidity": uidvalidity, "uid": uid,
                     "message_id": message_id, "sha256": hashlib.sha256(raw).hexdigest(), "raw": raw,
                     "size": len(raw), "from_addr": sender_address(from_header), "subject": subject,
                     "received_at": received, "outcome": "unreadable" if unreadable else "new", "attempts": 0,
                     "reason": unreadable, "processed_at": received if unreadable else None})
    digests = [r["sha256"] for r in rows if r["message_id"] is None]
    by_digest: dict[str, int] = {}
    if digests:
        for digest, mail_id in conn.execute(select(IncomingMail.sha256, IncomingMail.id).where(
                IncomingMail.sha256.in_(digests), IncomingMail.message_id.is_(None)).order_by(IncomingMail.id)):
            by_digest.setdefault(digest, mail_id)
    fresh: list[dict[str, Any]] = []
    fresh_at: list[int] = []
    later: list[int] = []   # rows whose fate is known only after the insert (a copy within the batch)
    first_digest: dict[str, int] = {}
    for i, row in enumerate(rows):
        if row["message_id"] is None:
            if row["sha256"] in by_digest or row["sha256"] in first_digest:
                later.append(i)   # stored already, or a copy of one in this batch
                continue
            first_digest[row["sha256"]] = i
        fresh.append(row)
        fresh_at.append(i)
    # the rows come back in no promised order (and the skipped ones not at all): each is matched to its
    # mail by what made it unique
    inserted = {_row_key(m, d, u): mail_id for mail_id, u, m, d in _insert_rows(conn, fresh)} if fresh else {}
    skipped: list[int] = []
    for row, i in zip(fresh, fresh_at, strict=True):
        mail_id = inserted.pop(_row_key(row["message_id"], row["sha256"], row["uid"]), None)
        if mail_id is not None:
            out[i] = Recorded(mail_id, True)
        else:
            skipped.append(i)
    _resolve(conn, rows, skipped + later, out, mailbox=mailbox, uidvalidity=uidvalidity, by_digest=by_digest)
    assert all(r is not None for r in out)
    return out  # type: ignore[return-value]


def _row_key(message_id: str | None, digest: str, uid: int | None) -> tuple[object, ...]:
    """What tells an inserted row's mail among the batch's (two with the same key: only the first can
    have been inserted, the other was refused by the first)."""
    return (uid, "id", message_id) if message_id is not None else (uid, "sha", digest)


_COLUMNS = ("source", "mailbox", "uidvalidity", "uid", "message_id", "sha256", "raw", "size", "from_addr", "subject",
            "received_at", "outcome", "attempts", "reason", "processed_at")
#: per dialect: the statement's text, its parameters' names in order, and each one's bind processor
_COMPILED: dict[str, tuple[str, list[str], dict[str, Any]]] = {}


def _compiled(conn: Connection) -> tuple[str, list[str], dict[str, Any]]:
    """``INSERT ... ON CONFLICT DO NOTHING`` (PostgreSQL: ``RETURNING id, uid, message_id, sha256``) as the
    driver takes it, with the column types' own conversions of the values (e.g. aware UTC times)."""
    dialect = conn.dialect
    found = _COMPILED.get(dialect.name)
    if found is None:
        table = cast(Table, IncomingMail.__table__)
        if dialect.name == "sqlite":
            from sqlalchemy.dialects.sqlite import insert as sqlite_insert

            stmt = sqlite_insert(table).values({c: bindparam(c) for c in _COLUMNS}).on_conflict_do_nothing()
        elif dialect.name == "postgresql":
            from sqlalchemy.dialects.postgresql import insert as pg_insert

            stmt = (pg_insert(table).values({c: bindparam(c) for c in _COLUMNS}).on_conflict_do_nothing()
                    .returning(table.c.id, table.c.uid, table.c.message_id, table.c.sha256))
        else:
            raise IntegrityError("no ON CONFLICT here", None, Exception(dialect.name))   # the slow path takes over
        compiled = stmt.compile(dialect=dialect)
        order = list(compiled.positiontup or _COLUMNS)
        processors = {c: p for c in _COLUMNS if (p := table.c[c].type.bind_processor(dialect)) is not None}
        found = _COMPILED[dialect.name] = (str(compiled), order, processors)
    return found


def _insert_rows(conn: Connection, rows: list[dict[str, Any]]) -> list[tuple[int, int | None, str | None, str]]:
    """``INSERT ... ON CONFLICT DO NOTHING`` for ``rows``; (id, uid, message_id, sha256) of the rows
    inserted (a row a unique key refuses is skipped).

    Both go straight to the driver's ``executemany`` with one short statement: SQLAlchemy would build
    one statement with a placeholder per value (and, on PostgreSQL, psycopg spends twice as long
    splitting it as the server spends inserting). PostgreSQL pipelines the rows and returns each
    inserted one; SQLite, whose ``executemany`` returns nothing, is asked afterwards for the rows past
    the highest id before the insert (this transaction holds the only writer lock, so those are its own)."""
    sql, order, processors = _compiled(conn)
    params: list[Any] = []
    for row in rows:
        values = {c: (processors[c](v) if c in processors else v) for c, v in row.items()}
        params.append(values if conn.dialect.name == "postgresql" else tuple(values[c] for c in order))
    dbapi = conn.dialect.loaded_dbapi
    try:
        if conn.dialect.name == "sqlite":
            before = conn.execute(select(func.max(IncomingMail.id))).scalar() or 0
            conn.connection.dbapi_connection.cursor().executemany(sql, params)  # type: ignore[union-attr]
            return [tuple(r) for r in conn.execute(  # type: ignore[misc]
                select(IncomingMail.id, IncomingMail.uid, IncomingMail.message_id, IncomingMail.sha256)
                .where(IncomingMail.id > before))]
        out: list[tuple[int, int | None, str | None, str]] = []
        with conn.connection.dbapi_connection.cursor() as cursor:  # type: ignore[union-attr]
            cursor.executemany(sql, params, returning=True)
            while True:
                out.extend(cursor.fetchall())
                if not cursor.nextset():
                    return out
    except dbapi.Error as exc:   # as SQLAlchemy would have raised it (IntegrityError, DataError...)
        raise DBAPIError.instance(sql, None, exc, dbapi.Error) from exc


def _resolve(conn: Any, rows: list[dict[str, Any]], todo: list[int], out: list[Recorded | None], *,
             mailbox: str | None, uidvalidity: int | None, by_digest: dict[str, int]) -> None:
    """The stored row for each mail the insert skipped, looked up as ``record_incoming`` would: by IMAP
    identity, then Message-ID, then the bytes of a mail without one."""
    if not todo:
        return
    identity = mailbox is not None and uidvalidity is not None
    uids = [rows[i]["uid"] for i in todo if identity and rows[i]["uid"] is not None]
    by_uid = {u: i for u, i in conn.execute(select(IncomingMail.uid, IncomingMail.id).where(
        IncomingMail.mailbox == mailbox, IncomingMail.uidvalidity == uidvalidity, IncomingMail.uid.in_(uids)))
        } if uids else {}
    ids = [rows[i]["message_id"] for i in todo if rows[i]["message_id"] is not None]
    by_id = {m: i for m, i in conn.execute(select(IncomingMail.message_id, IncomingMail.id).where(
        IncomingMail.message_id.in_(ids)))} if ids else {}
    digests = [rows[i]["sha256"] for i in todo if rows[i]["message_id"] is None]
    if digests:
        for digest, mail_id in conn.execute(select(IncomingMail.sha256, IncomingMail.id).where(
                IncomingMail.sha256.in_(digests), IncomingMail.message_id.is_(None)).order_by(IncomingMail.id)):
            by_digest.setdefault(digest, mail_id)
    for i in todo:
        row = rows[i]
        found = by_uid.get(row["uid"]) if identity and row["uid"] is not None else None
        if found is None:
            found = by_id.get(row["message_id"]) if row["message_id"] is not None else by_digest.get(row["sha256"])
        if found is None:   # refused by a key, yet not found: let the one-by-one path sort it out
            raise IntegrityError("skipped row not found", None, Exception("batch"))
        out[i] = Recorded(found, False)


# -- the three header fields record_incoming reads, fast --------------------------------------------------
# ``record_incoming`` reads them with the standard library's compat32 header parser, then ``header_text``.
# For the usual mail (a header block in printable ASCII, CRLF or LF line ends) the functions below give
# the same values in a fraction of the time, following the parser's rules (which lines are headers,
# where the block ends, envelope ``From `` lines, continuations); anything else goes to the parser
# itself. tests/store/test_incoming_batch.py checks the two agree.
#: what the fast reader takes: printable ASCII, tabs and line ends; the rest goes to the parser
_PLAIN = bytes(range(0x20, 0x7F)) + b"\t\r\n"
#: the line end before the first line that is not a header line (nor an envelope ``From `` line, nor a
#: continuation): the body starts there (searched in the header block with a line end put in front)
_NOT_HEADER = re.compile(rb"\n(?!From |[\041-\071\073-\176]*:|[\t ])")
#: a wanted field and its continuation lines
_FIELD = re.compile(rb"^(message-id|from|subject):([^\n]*(?:\n[\t ][^\n]*)*)", re.MULTILINE | re.IGNORECASE)
_LIMITS = {b"message-id": 998, b"from": 2000, b"subject": 2000}


def _head(raw: bytes) -> bytes:
    """The header block of a mail, up to and with its blank line (the header parser reads the body line
    by line too, for nothing)."""
    crlf = raw.find(b"\n\r\n")
    lf = raw.find(b"\n\n", 0, crlf + 2 if crlf >= 0 else len(raw))   # an LF blank line before it wins
    if lf >= 0:
        return raw[: lf + 2]
    return raw[: crlf + 3] if crlf >= 0 else raw


def _plain(head: bytes) -> bool:
    """Printable ASCII, tabs and line ends, a CR only before an LF."""
    return not head.translate(None, _PLAIN) and head.count(b"\r") == head.count(b"\r\n")


def header_fields(raw: bytes) -> tuple[str | None, str | None, str | None]:
    """(Message-ID, From, Subject) exactly as ``record_incoming`` reads them."""
    head = _head(raw)
    if _plain(head):
        return _fast_fields(head)
    headers = parsed_headers(head)
    return (header_text(headers, "Message-ID", 998), header_text(headers, "From", 2000),
            header_text(headers, "Subject", 2000))


def _fast_fields(head: bytes) -> tuple[str | None, str | None, str | None]:
    end = _NOT_HEADER.search(b"\n" + head)
    block = head[: end.start()] if end else head
    found: dict[bytes, str | None] = {}
    for m in _FIELD.finditer(block):
        name = m.group(1).lower()
        if name not in found:  # the first of each counts, as with the parser
            found[name] = " ".join(m.group(2).decode("ascii").split())[: _LIMITS[name]] or None
    return found.get(b"message-id"), found.get(b"from"), found.get(b"subject")


def mark_moved_many(s: Session, ids: Sequence[int], now: datetime) -> None:
    """``mark_moved`` for many mails, in one statement over runs of consecutive ids (a poll's mails
    mostly are; a long ``IN`` list costs more to build than the update)."""
    runs = id_runs(ids)
    for start in range(0, len(runs), 200):
        where = [IncomingMail.id.between(lo, hi) if lo != hi else IncomingMail.id == lo
                 for lo, hi in runs[start:start + 200]]
        s.execute(update(IncomingMail).where(or_(*where)).values(moved_at=now))


def id_runs(ids: Sequence[int]) -> list[tuple[int, int]]:
    """[(1, 3), (7, 7)] for [3, 1, 2, 7]."""
    runs: list[tuple[int, int]] = []
    for i in sorted(set(ids)):
        if runs and runs[-1][1] == i - 1:
            runs[-1] = (runs[-1][0], i)
        else:
            runs.append((i, i))
    return runs
