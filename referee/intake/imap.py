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
import base64
import contextlib
import logging
import re
import ssl
from collections.abc import Awaitable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import TypeVar

import aioimaplib
from sqlalchemy import select as sql_select

from ..config import ConfigError, Settings
from ..store.db import Store
from ..store.incoming_batch import mark_moved_many, record_batch
from ..store.models import IncomingMail
from ..store.types import utcnow
from .faults import fault_point

log = logging.getLogger("referee.intake")

#: UIDs fetched per command: aioimaplib's parser recurses per line of an answer and is quadratic in it
FETCH_CHUNK = 100
#: bytes handed to aioimaplib's parser at a time (see :func:`_limit_reads`)
READ_SIZE = 64 * 1024
#: mails stored per transaction
BATCH = 250
#: the first and the last batch of a pass (see :func:`plan_batches`)
EDGE_BATCH = 50
#: mails moved per command, once that many are committed (and the rest at the end of the pass): the
#: server's cost of a move is mostly per command; the answer has a line per mail, and aioimaplib's
#: parser recurses once per line (so well under Python's recursion limit)
MOVE_BATCH = 500
SOURCE = "imap"
T = TypeVar("T")


class IntakeError(Exception):
    """The mail server could not be used as configured (the message says why); nothing was lost."""


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


# -- the connection -----------------------------------------------------------------------------------
def mailbox_key(settings: Settings) -> str:
    """The name the store knows this mailbox by (unique across accounts and servers)."""
    return f"imap://{imap_user(settings)}@{settings.imap_host}/{settings.imap_mailbox}"


def imap_user(settings: Settings) -> str:
    return settings.imap_user or settings.referee_address


class Connection:
    """An aioimaplib client whose every command is bounded by ``timeout`` and checked for ``OK``."""

    def __init__(self, client: aioimaplib.IMAP4, timeout: float) -> None:
        self.client = client
        self.timeout = timeout

    async def call(self, what: str, awaitable: Awaitable[T]) -> T:
        try:
            return await asyncio.wait_for(awaitable, self.timeout)
        except TimeoutError:
            raise IntakeError(f"IMAP {what}: no answer within {self.timeout:g} s") from None
        except aioimaplib.AioImapException as exc:
            raise IntakeError(f"IMAP {what}: {exc}") from None
        except OSError as exc:
            raise IntakeError(f"IMAP {what}: {exc.strerror or exc}") from None

    async def ok(self, what: str, awaitable: Awaitable[aioimaplib.Response]) -> aioimaplib.Response:
        response = await self.call(what, awaitable)
        if response.result != "OK":
            text = b" ".join(x for x in response.lines if isinstance(x, bytes)).decode("utf-8", "replace")
            raise IntakeError(f"IMAP {what} refused: {response.result} {text[:200]}")
        return response

    @property
    def capabilities(self) -> set[str]:
        return {c.upper() for c in self.client.protocol.capabilities}

    async def close(self) -> None:
        with contextlib.suppress(Exception):  # the pass is over either way
            await asyncio.wait_for(self.client.logout(), min(self.timeout, 5.0))


async def _starttls(client: aioimaplib.IMAP4, context: ssl.SSLContext, host: str, timeout: float) -> None:
    """STARTTLS, which aioimaplib 2.0.3 knows as a command but offers no method for: send it, then
    upgrade the connection under the same protocol object and ask for the capabilities again."""
    protocol = client.protocol
    if "STARTTLS" not in {c.upper() for c in protocol.capabilities}:
        raise IntakeError(f"IMAP server {host} does not offer STARTTLS (set imap_tls to ssl or none)")
    response = await asyncio.wait_for(protocol.execute(aioimaplib.Command("STARTTLS", protocol.new_tag(),
                                                                          loop=protocol.loop)), timeout)
    if response.result != "OK":
        raise IntakeError(f"IMAP STARTTLS refused: {response.lines!r}"[:300])
    loop = asyncio.get_running_loop()
    protocol.transport = await asyncio.wait_for(
        loop.start_tls(protocol.transport, protocol, context, server_hostname=host), timeout)
    await asyncio.wait_for(protocol.capability(), timeout)


def _limit_reads(client: aioimaplib.IMAP4) -> None:
    """Hand aioimaplib what arrives ``READ_SIZE`` bytes at a time: for every line and every literal of
    the data it is given, it copies what is left of that data, so its cost grows with the square of the
    size (asyncio passes up to 256 KiB at once, TLS as much as is decrypted). A third less CPU for a big
    fetch at 64 KiB. The parser already copes with data cut anywhere (it is cut into TCP segments)."""
    protocol = client.protocol
    receive = protocol.data_received

    def data_received(data: bytes) -> None:
        if len(data) <= READ_SIZE:
            receive(data)
            return
        view = memoryview(data)
        for start in range(0, len(data), READ_SIZE):
            receive(bytes(view[start:start + READ_SIZE]))

    protocol.data_received = data_received  # type: ignore[method-assign]


async def connect(settings: Settings, *, ssl_context: ssl.SSLContext | None = None) -> Connection:
    """Log in to the configured IMAP server (not yet selecting a mailbox)."""
    mode = settings.imap_tls.strip().lower()
    if mode not in ("ssl", "starttls", "none"):
        raise ConfigError(f"imap_tls must be ssl, starttls or none, not {settings.imap_tls!r}")
    timeout = float(settings.mail_timeout)
    context = ssl_context or (ssl.create_default_context() if mode != "none" else None)
    host, port = settings.imap_host, settings.imap_port
    try:
        if mode == "ssl":
            client = aioimaplib.IMAP4_SSL(host, port, timeout=timeout, ssl_context=context)
        else:
            client = aioimaplib.IMAP4(host, port, timeout=timeout)
        await asyncio.wait_for(client.wait_hello_from_server(), timeout)
        if mode == "starttls":
            assert context is not None
            await _starttls(client, context, host, timeout)
    except TimeoutError:
        raise IntakeError(f"IMAP server {host}:{port}: no greeting within {timeout:g} s") from None
    except (OSError, aioimaplib.AioImapException) as exc:
        raise IntakeError(f"IMAP server {host}:{port}: {exc}") from None
    _limit_reads(client)
    conn = Connection(client, timeout)
    user = imap_user(settings)
    if settings.oauth2:
        from ..mailer.oauth2 import OAuth2Error, access_token_async

        try:
            token = await access_token_async(settings)
        except OAuth2Error as exc:
            await conn.close()
            raise IntakeError(f"IMAP login as {user} on {host}: no OAuth2 token: {exc}") from None
        response = await conn.call("AUTHENTICATE XOAUTH2", xoauth2(client, user, token, timeout))
    else:
        response = await conn.call("LOGIN", client.login(user, settings.secret("imap_password")))
    if response.result != "OK":
        await conn.close()
        from ..mailer.oauth2 import login_hint

        said = " ".join(x.decode("utf-8", "replace") for x in response.lines if isinstance(x, bytes))[:200]
        raise IntakeError(f"IMAP login as {user} on {host} refused: {said} ({login_hint(settings, 'IMAP')})")
    return conn


async def xoauth2(client: aioimaplib.IMAP4, user: str, token: str, timeout: float) -> aioimaplib.Response:
    """``AUTHENTICATE XOAUTH2`` with the token as initial response. aioimaplib's own ``xoauth2`` waits forever
    when the token is refused: the server then sends a continuation with its error (base64 JSON) and waits
    for an empty line before the tagged NO. Here the error is kept in the answer and the empty line sent."""
    protocol = client.protocol
    sasl = base64.b64encode(f"user={user}\1auth=Bearer {token}\1\1".encode()).decode("ascii")
    command = aioimaplib.Command("AUTHENTICATE", protocol.new_tag(), "XOAUTH2", sasl, loop=protocol.loop)
    original = protocol._continuation

    def continuation(line: bytes) -> None:
        if protocol.pending_sync_command is command:
            with contextlib.suppress(ValueError):
                line = base64.b64decode(line.removeprefix(b"+").strip(), validate=True)
            command.append_to_resp(line)
            protocol.transport.write(b"\r\n")
        else:
            original(line)

    protocol._continuation = continuation  # type: ignore[method-assign]
    try:
        response = await asyncio.wait_for(protocol.execute(command, scrub=token), timeout)
    finally:
        protocol._continuation = original  # type: ignore[method-assign]
    if response.result == "OK":
        protocol.state = aioimaplib.AUTH
    return response


_UIDVALIDITY = re.compile(rb"\[UIDVALIDITY (\d+)\]", re.IGNORECASE)


async def select(conn: Connection, mailbox: str) -> int:
    """Select ``mailbox``; its UIDVALIDITY."""
    response = await conn.ok(f"SELECT {mailbox}", conn.client.select(mailbox))
    for line in response.lines:
        if isinstance(line, bytes) and (m := _UIDVALIDITY.search(line)):
            return int(m.group(1))
    raise IntakeError(f"IMAP SELECT {mailbox}: the server gave no UIDVALIDITY")


async def ensure_folder(conn: Connection, folder: str) -> None:
    """Create the processed folder if it is missing (an answer of "exists already" is fine)."""
    response = await conn.call(f"CREATE {folder}", conn.client.create(folder))
    if response.result != "OK":
        text = b" ".join(x for x in response.lines if isinstance(x, bytes)).upper()
        if b"ALREADYEXISTS" not in text and b"EXISTS" not in text:
            raise IntakeError(f"IMAP: cannot create the folder {folder!r}: {text[:200].decode('ascii', 'replace')}")


async def search_uids(conn: Connection, *criteria: str) -> list[int]:
    response = await conn.ok("UID SEARCH", conn.client.uid_search(*criteria, charset=None))
    uids: list[int] = []
    for line in response.lines[:-1] or response.lines:
        if not isinstance(line, bytes):
            continue
        words = line.split()
        if words and words[0].upper() == b"SEARCH":
            words = words[1:]
        uids.extend(int(w) for w in words if w.isdigit())
    return sorted(set(uids))


def uid_set(uids: Sequence[int]) -> str:
    """``1:3,7,9:10`` for [1, 2, 3, 7, 9, 10]."""
    parts: list[str] = []
    ordered = sorted(set(uids))
    i = 0
    while i < len(ordered):
        j = i
        while j + 1 < len(ordered) and ordered[j + 1] == ordered[j] + 1:
            j += 1
        parts.append(str(ordered[i]) if i == j else f"{ordered[i]}:{ordered[j]}")
        i = j + 1
    return ",".join(parts)


_FETCH_UID = re.compile(rb"\bUID (\d+)", re.IGNORECASE)
_INTERNALDATE = re.compile(rb'INTERNALDATE "\s?(\d{1,2})-([A-Za-z]{3})-(\d{4}) (\d\d):(\d\d):(\d\d) '
                           rb'([+-])(\d\d)(\d\d)"', re.IGNORECASE)
_MONTHS = {m: n for n, m in enumerate((b"JAN", b"FEB", b"MAR", b"APR", b"MAY", b"JUN", b"JUL", b"AUG", b"SEP", b"OCT",
                                       b"NOV", b"DEC"), start=1)}


def _internaldate(line: bytes) -> datetime | None:
    """The INTERNALDATE of a FETCH line (``"17-Jul-1996 02:44:25 -0700"``), in UTC."""
    m = _INTERNALDATE.search(line)
    if not m:
        return None
    day, month, year, hh, mm, ss, sign, zh, zm = m.groups()
    try:
        offset = timedelta(hours=int(zh), minutes=int(zm)) * (1 if sign == b"+" else -1)
        local = datetime(int(year), _MONTHS[month.upper()], int(day), int(hh), int(mm), int(ss), tzinfo=UTC)
        return local - offset
    except (KeyError, ValueError, OverflowError):
        return None


def parse_fetch(lines: Sequence[bytes | bytearray]) -> list[tuple[int, bytes, datetime | None]]:
    """(UID, raw message, INTERNALDATE) from the answer to ``UID FETCH ... (UID INTERNALDATE BODY.PEEK[])``.

    aioimaplib gives ``b'3 FETCH (UID 7 INTERNALDATE "..." BODY[] {1234}'``, then the literal as a
    bytearray, then ``b')'`` (where a server may put the UID instead, after the literal).
    """
    out: list[tuple[int, bytes, datetime | None]] = []
    for i, line in enumerate(lines):
        if not isinstance(line, bytearray) or i == 0:
            continue
        head = lines[i - 1]
        if not isinstance(head, bytes) or b"FETCH" not in head.upper():
            continue
        m = _FETCH_UID.search(head)
        tail = lines[i + 1] if i + 1 < len(lines) and isinstance(lines[i + 1], bytes) else b""
        if m is None:
            m = _FETCH_UID.search(tail)
        if m is None:
            continue
        out.append((int(m.group(1)), bytes(line), _internaldate(head) or _internaldate(tail)))
    return out


class _FetchCommand(aioimaplib.FetchCommand):
    """aioimaplib's FETCH command, with its test for "is this message's answer complete" kept as two
    running counts instead of rescanning the whole answer after every line (quadratic in the answer);
    the same test: the parentheses balance since the last ``n FETCH (`` line."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        self._opened = self._closed = 0
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]

    def append_to_resp(self, line: bytes, result: str = "Pending") -> None:
        if isinstance(line, bytes):
            if self.FETCH_MESSAGE_DATA_RE.match(line):
                self._opened = self._closed = 0
            self._opened += line.count(b"(")
            self._closed += line.count(b")")
        super().append_to_resp(line, result)

    def wait_data(self) -> bool:
        return self._opened != self._closed


async def fetch(conn: Connection, uids: Sequence[int], chunk: int = FETCH_CHUNK
                ) -> list[tuple[int, bytes, datetime | None]]:
    """The mails with these UIDs (those still there), ``chunk`` UIDs a command."""
    protocol = conn.client.protocol
    out: list[tuple[int, bytes, datetime | None]] = []
    for start in range(0, len(uids), chunk):
        # no client timer (restarted on every line of the answer, it costs more than the parsing):
        # ``conn.ok`` bounds the whole command instead
        command = _FetchCommand(protocol.new_tag(), uid_set(uids[start:start + chunk]),
                                "(UID INTERNALDATE BODY.PEEK[])", prefix="UID", loop=protocol.loop, timeout=None)
        response = await conn.ok("UID FETCH", protocol.execute(command))
        out.extend(parse_fetch(response.lines))
    return out


async def take_away(conn: Connection, uids: Sequence[int], processed: str) -> None:
    """Move ``uids`` to ``processed`` (or flag them seen when it is empty). UIDs no longer there are skipped
    by the server, so doing it twice is harmless. In batches: the server answers a move with a line per
    message, and aioimaplib's parser recurses once per line of an answer."""
    ordered = sorted(set(uids))
    for start in range(0, len(ordered), MOVE_BATCH):
        await _take_away(conn, ordered[start:start + MOVE_BATCH], processed)


async def _take_away(conn: Connection, uids: Sequence[int], processed: str) -> None:
    if not uids:
        return
    which = uid_set(uids)
    if not processed:
        await conn.ok("UID STORE", conn.client.uid("store", which, "+FLAGS.SILENT", r"(\Seen)"))
        return
    command = "move" if "MOVE" in conn.capabilities else "copy"
    response = await conn.call(f"UID {command.upper()}", conn.client.uid(command, which, processed))
    if response.result != "OK":
        # the processed folder is created when first needed (a server says so with [TRYCREATE]; some
        # just refuse): create it and try once more
        await ensure_folder(conn, processed)
        await conn.ok(f"UID {command.upper()}", conn.client.uid(command, which, processed))
    if command == "move":
        return
    await conn.ok("UID STORE", conn.client.uid("store", which, "+FLAGS.SILENT", r"(\Deleted)"))
    if "UIDPLUS" in conn.capabilities:
        await conn.ok("UID EXPUNGE", conn.client.uid("expunge", which))
    else:  # also expunges other messages marked deleted: without UIDPLUS there is no narrower way
        await conn.ok("EXPUNGE", conn.client.expunge())


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
