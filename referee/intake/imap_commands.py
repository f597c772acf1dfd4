"""The IMAP commands of one intake pass, on a logged-in :class:`~.imap_connection.Connection`: select the
mailbox (its UIDVALIDITY), search UIDs, fetch mails by UID, and take them away to the processed folder
(created when first needed) or flag them seen."""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

import aioimaplib

from .imap_connection import Connection, IntakeError

#: UIDs fetched per command: aioimaplib's parser recurses per line of an answer and is quadratic in it
FETCH_CHUNK = 100
#: mails moved per command, once that many are committed (and the rest at the end of the pass): the
#: server's cost of a move is mostly per command; the answer has a line per mail, and aioimaplib's
#: parser recurses once per line (so well under Python's recursion limit)
MOVE_BATCH = 500


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


def _internaldate(line: bytes | bytearray) -> datetime | None:
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
