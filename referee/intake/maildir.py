"""Taking mail from a Maildir (the embedded default transport), and one mail from standard input.

Maildir (``transport = "maildir"``, directory ``maildir_in``): every message file in ``new/`` and
``cur/`` is stored (:func:`referee.store.mail.record_incoming`), the transaction committed, and only
then the file renamed out of the way. Where to: the Maildir++ sub-folder named by ``imap_processed``
(``Processed`` -> ``<maildir_in>/.Processed/cur/``), flagged seen; with ``imap_processed = ""`` the
file stays and is flagged seen instead (``new/x`` -> ``cur/x:2,S``), and files already flagged seen
are passed over. A Maildir has no UIDs, so a file stored just before a crash is recognised on the
next pass by its Message-ID (or its bytes) and only renamed. Files are read in batches, one
transaction each; the crash points of :mod:`referee.intake.faults` apply here too.

``referee ingest`` (:func:`ingest_bytes`) stores one mail handed over on standard input by an MTA
(a procmail recipe, a Postfix ``pipe`` transport, ``~/.forward``); its exit status tells the MTA
whether to keep the mail and try again (see :mod:`referee.intake.cli`).
"""

from __future__ import annotations

import contextlib
import logging
import os
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

from ..common.config import Settings
from ..store.db import Store
from ..store.incoming_batch import mark_moved_many, record_batch
from ..store.mail import mark_moved, record_incoming, unmoved
from ..store.types import utcnow
from .faults import fault_point
from .imap import PollReport

BATCH = 50
log = logging.getLogger("referee.intake")


def inbox_path(settings: Settings) -> Path:
    return settings.path(settings.maildir_in)


def processed_path(settings: Settings) -> Path | None:
    name = settings.imap_processed.strip().strip("./")
    return inbox_path(settings) / f".{name.replace('/', '.')}" if name else None


def mailbox_key(root: Path) -> str:
    return f"maildir:{root.resolve()}"


def make_maildir(path: Path) -> None:
    for sub in ("tmp", "new", "cur"):
        (path / sub).mkdir(parents=True, exist_ok=True)


def _split(name: str) -> tuple[str, str]:
    """``1234.x.host:2,RS`` -> (``1234.x.host``, ``RS``)."""
    base, sep, flags = name.partition(":2,")
    return (base, flags) if sep else (name, "")


def waiting_files(root: Path, *, flag_mode: bool) -> list[Path]:
    """The message files not yet taken, oldest first (new/ before cur/, then by name)."""
    out: list[Path] = []
    for sub in ("new", "cur"):
        try:
            names = sorted(os.listdir(root / sub))
        except FileNotFoundError:
            continue
        for name in names:
            if name.startswith("."):
                continue
            if flag_mode and "S" in _split(name)[1]:
                continue
            out.append(root / sub / name)
    return out


def _put_away(path: Path, target: Path | None) -> None:
    """Rename a stored message file out of the way (see the module docstring). A file gone already is fine."""
    base, flags = _split(path.name)
    flags = "".join(sorted(set(flags) | {"S"}))
    folder = (target if target is not None else path.parent.parent) / "cur"
    goal = folder / f"{base}:2,{flags}"
    n = 0
    while goal != path and goal.exists():  # unique names should never clash; never overwrite one that does
        n += 1
        goal = folder / f"{base}.{n}:2,{flags}"
    with contextlib.suppress(FileNotFoundError):
        os.replace(path, goal)


def _read(paths: Sequence[Path]) -> list[tuple[Path, bytes, datetime]]:
    out = []
    for path in paths:
        try:
            raw = path.read_bytes()
            arrived = datetime.fromtimestamp(path.stat().st_mtime, UTC)
        except FileNotFoundError:  # taken by another reader meanwhile
            continue
        out.append((path, raw, arrived))
    return out


def poll_maildir(settings: Settings, store: Store, *, batch: int = BATCH, limit: int | None = None,
                 now: datetime | None = None) -> PollReport:
    """One pass over the inbox Maildir. ``limit``: take at most this many files. ``now``: the service's
    clock (default: the wall clock); a mail counts as received when its file was written, or now if
    that is earlier."""
    clock = now
    root = inbox_path(settings)
    key = mailbox_key(root)
    report = PollReport(mailbox=key)
    make_maildir(root)
    target = processed_path(settings)
    if target is not None:
        make_maildir(target)
    files = waiting_files(root, flag_mode=target is None)
    report.waiting = len(files)
    fault_point("connected")
    if limit is not None:
        files = files[:limit]
    to_mark: list[int] = []
    for start in range(0, len(files), batch):
        mails = _read(files[start:start + batch])
        fault_point("fetched")
        ids: list[int] = []
        refused: set[Path] = set()
        now = clock or utcnow()
        with store.write() as s:
            mark_moved_many(s, to_mark, now)
            rows = [(None, raw, min(arrived, now)) for _path, raw, arrived in mails]
            for (path, _raw, _at), done in zip(mails, record_batch(s, rows, source="maildir", mailbox=key),
                                               strict=True):
                fault_point("storing")
                if done.id is None:  # this one mail: it stays where it is, the others go on
                    log.error("mail %s could not be stored (left in the Maildir): %s", path, done.error)
                    refused.add(path)
                    report.refused += 1
                    continue
                ids.append(done.id)
                if done.new:
                    report.stored += 1
                    report.ids.append(done.id)
                else:
                    report.known += 1
        fault_point("stored")
        for path, _raw, _arrived in mails:
            if path not in refused:
                _put_away(path, target)
        report.moved += len(mails) - len(refused)
        fault_point("moved")
        to_mark = ids
    with store.write() as s:
        now = clock or utcnow()
        mark_moved_many(s, to_mark, now)
        if limit is None:  # every file was put away: a row still unmarked was put away by a pass cut short
            for row in unmoved(s, key):
                mark_moved(s, row, now=now)
    fault_point("marked")
    return report


def ingest_bytes(store: Store, raw: bytes, *, source: str = "stdin", now: datetime | None = None) -> tuple[int, bool]:
    """Store one mail as received. Returns (its store id, whether it is new)."""
    with store.write() as s:
        row, new = record_incoming(s, raw, source=source, now=now)
        return row.id, new
