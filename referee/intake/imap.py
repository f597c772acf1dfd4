"""Taking mail from an IMAP mailbox into the store without ever losing or doubling one.

One pass of :func:`poll` (``referee poll`` with ``transport = "imap"``):

1. log in (``imap_tls``: ``ssl``, ``starttls`` or ``none``), select ``imap_mailbox`` and read its
   UIDVALIDITY; the mailbox is known in the store as ``imap://<user>@<host>/<mailbox>``;
2. list the messages waiting: every UID in the mailbox when processed mail is moved away
   (``imap_processed`` names a folder), or the UIDs without ``\\Seen`` when it is only flagged
   (``imap_processed = ""``);
3. finish what an earlier pass left half done: mails stored but not moved are moved now (or, when
   they are gone from the mailbox already, just marked moved);
4. fetch the rest by UID and store them in batches (:func:`plan_batches`), each in one transaction
   (:func:`referee.store.incoming_batch.record_batch`: the rules of :func:`referee.store.mail.record_incoming`
   in a few statements): the raw bytes and their identity (mailbox, UIDVALIDITY, UID). The commit
   comes first,
5. only then move the batch (``UID MOVE``, or ``UID COPY`` + ``\\Deleted`` + ``UID EXPUNGE`` on a
   server without MOVE; the processed folder is created the first time a move needs it) or flag it
   ``\\Seen``, and mark it moved in the next transaction.

A crash anywhere leaves each mail either still in the mailbox and not stored (it is fetched next
time), or stored and still in the mailbox (step 3 moves it; storing it again finds the stored row),
or stored and moved. A new UIDVALIDITY makes every UID new: the whole mailbox is read again, and
the store recognises the mails it has by their Message-ID (or their bytes), so none is taken twice.

The connection and login (TLS, password or OAuth2) are :mod:`.imap_connection`'s; the IMAP commands (select,
search, fetch, move) :mod:`.imap_commands`'; this module is the pass itself and its store side.

Speed (``benchmarks/bench_intake.py``): batch i is stored in a worker thread while batch i+1 is
fetched and batch i-1 is moved; the first and last batches are short so the pipeline fills and
drains quickly; aioimaplib's parser is given 64 KiB at a time and FETCH answers are tested for
completeness in linear time (both quadratic in aioimaplib as it comes). Every server command has a time limit
(``mail_timeout``), so a dead connection fails the pass instead of hanging it; what was committed
stays, and the next pass carries on. Crash tests stop the process at the named points of
:mod:`referee.intake.faults`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import ssl
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import select as sql_select

from ..common.config import Settings
from ..store.db import Store
from ..store.incoming_batch import mark_moved_many, record_batch
from ..store.mail_models import IncomingMail
from ..store.types import utcnow
from .faults import fault_point
from .imap_commands import (
    FETCH_CHUNK,
    MOVE_BATCH,
    ensure_folder,
    fetch,
    parse_fetch,
    search_uids,
    select,
    take_away,
    uid_set,
)
from .imap_connection import READ_SIZE, Connection, IntakeError, connect, imap_user, mailbox_key, xoauth2

log = logging.getLogger("referee.intake")

#: mails stored per transaction
BATCH = 250
#: the first and the last batch of a pass (see :func:`plan_batches`)
EDGE_BATCH = 50
SOURCE = "imap"
#: the connection and the commands, for callers of this module (the config check, the benchmarks)
__all__ = ["BATCH", "EDGE_BATCH", "FETCH_CHUNK", "MOVE_BATCH", "READ_SIZE", "Connection", "IntakeError", "PollReport",
           "connect", "ensure_folder", "fetch", "imap_user", "mailbox_key", "parse_fetch", "plan_batches", "poll",
           "poll_async", "search_uids", "select", "take_away", "uid_set", "xoauth2"]


@dataclass
class PollReport:
    """What one pass did."""

    mailbox: str = ""
    uidvalidity: int | None = None
    #: messages waiting in the mailbox when the pass began
    waiting: int = 0
    #: mails stored for the first time
    stored: int = 0
    #: mails found in the store already (a pass cut short before, a new UIDVALIDITY, a copy)
    known: int = 0
    #: mails moved to the processed folder (or flagged) on the server
    moved: int = 0
    #: stored mails found gone from the mailbox already, marked moved
    settled: int = 0
    #: mails the store refused to take (logged; left in the mailbox for the next pass)
    refused: int = 0
    #: store ids of the mails stored for the first time
    ids: list[int] = field(default_factory=list)

    def summary(self) -> str:
        return (f"{self.mailbox}: {self.waiting} waiting, {self.stored} stored, {self.known} known already, "
                f"{self.moved} moved" + (f", {self.refused} refused by the store (left, see the log)"
                                         if self.refused else ""))


# -- the store side (run in a worker thread) -------------------------------------------------------------
@dataclass
class _Stored:
    #: UIDs to move on the server (stored now, or found stored and still in the mailbox)
    uids: list[int] = field(default_factory=list)
    #: store ids of those mails
    ids: list[int] = field(default_factory=list)
    new_ids: list[int] = field(default_factory=list)
    known: int = 0
    #: UIDs the store refused (left on the server)
    refused: list[int] = field(default_factory=list)


def _store_batch(store: Store, key: str, validity: int, mails: Sequence[tuple[int, bytes, datetime | None]],
                 mark: Sequence[int], clock: datetime | None) -> _Stored:
    """Store a fetched batch in one transaction, marking moved the mails moved since the last one.
    A mail counts as received when the server got it (INTERNALDATE), or now if that is earlier."""
    out = _Stored()
    now = clock or utcnow()
    with store.write() as s:
        mark_moved_many(s, mark, now)
        batch = [(uid, raw, min(arrived, now) if arrived else now) for uid, raw, arrived in mails]
        for (uid, _raw, _at), done in zip(batch, record_batch(s, batch, source=SOURCE, mailbox=key,
                                                                uidvalidity=validity), strict=True):
            fault_point("storing")
            if done.id is None:  # this one mail: it stays on the server, the others go on
                log.error("mail UID %s of %s could not be stored (left on the server): %s", uid, key, done.error)
                out.refused.append(uid)
                continue
            out.uids.append(uid)
            out.ids.append(done.id)
            if done.new:
                out.new_ids.append(done.id)
            else:
                out.known += 1
    return out


def _mark(store: Store, ids: Sequence[int], clock: datetime | None = None) -> None:
    if ids:
        with store.write() as s:
            mark_moved_many(s, ids, clock or utcnow())


def _unmoved(store: Store, key: str) -> list[tuple[int, int | None, int | None]]:
    """Mails of this mailbox stored but not moved: (id, UIDVALIDITY, UID)."""
    with store.read() as s:
        return [(i, v, u) for i, v, u in s.execute(
            sql_select(IncomingMail.id, IncomingMail.uidvalidity, IncomingMail.uid)
            .where(IncomingMail.mailbox == key, IncomingMail.moved_at.is_(None)).order_by(IncomingMail.id))]


# -- one pass ------------------------------------------------------------------------------------------
async def poll_async(settings: Settings, store: Store, *, batch: int = BATCH, limit: int | None = None,
                     now: datetime | None = None, ssl_context: ssl.SSLContext | None = None) -> PollReport:
    """One pass over the configured mailbox (see the module docstring). ``limit``: take at most this many
    new mails (the rest wait for the next pass). ``now``: the service's clock (default: the wall clock)."""
    key = mailbox_key(settings)
    report = PollReport(mailbox=key)
    processed = settings.imap_processed.strip()
    conn = await connect(settings, ssl_context=ssl_context)
    moved: list[int] = []
    # what an earlier pass stored but did not get to move, read while the server selects the mailbox
    scanning = asyncio.ensure_future(asyncio.to_thread(_unmoved, store, key))
    try:
        validity = await select(conn, settings.imap_mailbox)
        report.uidvalidity = validity
        fault_point("connected")
        waiting = await search_uids(conn, "UNSEEN" if not processed else "ALL")
        report.waiting = len(waiting)
        in_box = set(waiting)
        leftovers = await scanning
        again = [(i, u) for i, v, u in leftovers if v == validity and u in in_box]
        gone = [i for i, v, u in leftovers if v == validity and u not in in_box]
        old_validity = [i for i, v, _ in leftovers if v != validity]
        if again:
            await take_away(conn, [u for _, u in again], processed)
            report.moved += len(again)
        if again or gone:
            await asyncio.to_thread(_mark, store, [i for i, _ in again] + gone, now)
        report.settled += len(gone)

        # (a mail stored and marked moved that is still here is fetched again: the store knows it by its
        # UID, and it is moved again)
        known = {u for _, u in again}
        todo = [u for u in waiting if u not in known]
        if limit is not None:
            todo = todo[:limit]
        moved += await _pipeline(conn, store, key, validity, todo, batch, processed, report, now)
        if limit is None:
            # stored under an older UIDVALIDITY: met again in the mailbox above (and moved), or gone from it
            moved += old_validity
        if moved:
            await asyncio.to_thread(_mark, store, moved, now)
            fault_point("marked")
    finally:
        if not scanning.done():
            with contextlib.suppress(Exception):
                await scanning
        await conn.close()
    log.info("%s", report.summary())
    return report


def plan_batches(count: int, batch: int, edge: int = EDGE_BATCH) -> list[int]:
    """Sizes of the batches for ``count`` mails: ``batch`` each, but the first and the last short, so
    the store starts early and little is left to store, move and mark once the last fetch is in."""
    if count <= 2 * edge or batch <= edge:
        return [min(batch, count - start) for start in range(0, count, batch)]
    middle = count - 2 * edge
    return [edge] + [min(batch, middle - start) for start in range(0, middle, batch)] + [edge]


async def _pipeline(conn: Connection, store: Store, key: str, validity: int, todo: list[int], batch: int,
                    processed: str, report: PollReport, now: datetime | None) -> list[int]:
    """Fetch, store and move ``todo`` in batches. Batch i is stored (in a worker thread, one transaction)
    while batch i+1 is fetched and batch i-1, committed already, is moved; each store transaction also
    marks moved what was moved before it began. Returns the ids moved but not yet marked."""
    storing: asyncio.Future[_Stored] | None = None
    marking: asyncio.Future[None] | None = None
    waiting = _Stored()   # committed, not yet moved
    moved: list[int] = []
    start = 0
    try:
        for size in plan_batches(len(todo), batch):
            mails = await fetch(conn, todo[start:start + size], min(size, FETCH_CHUNK))
            start += size
            fault_point("fetched")
            if storing is not None:
                _committed(await storing, waiting, report)
                storing = None
            storing = asyncio.ensure_future(asyncio.to_thread(_store_batch, store, key, validity, mails, moved, now))
            moved = await _move_committed(conn, waiting, processed, report)
        if storing is not None:
            _committed(await storing, waiting, report)
            storing = None
        if moved:   # marked while the last batch is moved
            marking = asyncio.ensure_future(asyncio.to_thread(_mark, store, moved, now))
        moved = await _move_committed(conn, waiting, processed, report)
        if marking is not None:
            await marking
            marking = None
        return moved
    finally:  # after a failure: let the store finish its transaction (committed or not)
        for task in (storing, marking):
            if task is not None:
                with contextlib.suppress(Exception):
                    await task


def _committed(done: _Stored, waiting: _Stored, report: PollReport) -> None:
    """A batch is committed: count it, and queue its mails for moving."""
    fault_point("stored")
    report.stored += len(done.new_ids)
    report.known += done.known
    report.refused += len(done.refused)
    report.ids.extend(done.new_ids)
    waiting.uids += done.uids
    waiting.ids += done.ids


async def _move_committed(conn: Connection, waiting: _Stored, processed: str, report: PollReport) -> list[int]:
    """Move (or flag) the committed mails waiting; the ids to mark moved."""
    if not waiting.uids:
        return []
    await take_away(conn, waiting.uids, processed)
    report.moved += len(waiting.uids)
    fault_point("moved")
    ids = waiting.ids
    waiting.uids, waiting.ids = [], []
    return ids


def poll(settings: Settings, store: Store, **kwargs: object) -> PollReport:
    """:func:`poll_async` for synchronous callers (the command line, the tick)."""
    return asyncio.run(poll_async(settings, store, **kwargs))  # type: ignore[arg-type]

