"""Files that hold secrets are created owner-only (0600, directories 0700), whatever the umask.

cron runs the referee under umask 022, which would leave new files readable by every user of the
machine. The database (players' keys, every mail) and its ``-wal``/``-shm`` files, the outgoing
Maildir (turn mails carry keys) and the demo's config (the GM secret) are created through here.
SQLite creates a database's ``-wal`` and ``-shm`` files with the database file's own mode, so a
database file created owner-only keeps them owner-only too.

Existing files keep the mode the operator gave them; ``referee config check`` warns about a
database or password file that others can read (:func:`readable_by_others`).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

FILE_MODE = 0o600
DIR_MODE = 0o700


def create_private(path: Path) -> bool:
    """Create ``path`` empty and owner-only if it does not exist. Returns whether it was created."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE)
    except FileExistsError:
        return False
    os.close(fd)
    return True


def open_private(path: Path) -> int:
    """A descriptor for writing ``path`` afresh (created or truncated), owner-only whatever the umask."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, FILE_MODE)
    os.fchmod(fd, FILE_MODE)  # a file that existed keeps its mode through O_CREAT
    return fd


def write_private(path: Path, data: bytes | str) -> None:
    """Write ``path`` owner-only (created or replaced in place)."""
    with os.fdopen(open_private(path), "wb") as fh:
        fh.write(data.encode("utf-8") if isinstance(data, str) else data)


def make_private_dirs(path: Path) -> None:
    """``mkdir -p`` whose new directories are owner-only (existing ones are left as they are)."""
    missing = []
    at = path
    while not at.exists():
        missing.append(at)
        at = at.parent
    for directory in reversed(missing):
        try:
            directory.mkdir(mode=DIR_MODE)
        except FileExistsError:  # made by another process meanwhile
            continue
        os.chmod(directory, DIR_MODE)


def readable_by_others(path: Path) -> str | None:
    """``group`` or ``every user`` when someone besides the owner can read ``path``; None otherwise."""
    try:
        mode = path.stat().st_mode
    except OSError:
        return None
    if mode & stat.S_IROTH:
        return "every user"
    if mode & stat.S_IRGRP:
        return "its group"
    return None
