"""A full disk under the outgoing Maildir: the mail is not sent (the outbox keeps it for the next pass)
and no empty or half-written file is left in ``tmp/``. The disk is a real 64 KiB tmpfs (needs root)."""

from __future__ import annotations

import asyncio
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from referee.mailer.transports import MaildirTransport, ServerDown


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    where = tmp_path / "disk"
    where.mkdir()
    if os.geteuid() != 0 or subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(where)],
                                           capture_output=True).returncode != 0:
        pytest.skip("mounting a tmpfs needs root")
    yield where
    subprocess.run(["umount", "-l", str(where)], check=False)


def mail(n: int, size: int) -> bytes:
    return f"Message-ID: <m{n}@example.test>\r\nSubject: turn\r\n\r\n".encode() + b"x" * size


def test_a_full_maildir_leaves_no_empty_file_and_the_mail_can_go_later(small_disk: Path):
    out = MaildirTransport(small_disk / "out")
    asyncio.run(out.send("referee@example.test", ["alice@example.test"], mail(1, 1000)))
    with pytest.raises(ServerDown, match="No space left on device"):
        asyncio.run(out.send("referee@example.test", ["bob@example.test"], mail(2, 200_000)))
    assert list((small_disk / "out" / "tmp").iterdir()) == []
    assert len(list((small_disk / "out" / "new").iterdir())) == 1
