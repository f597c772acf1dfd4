"""End to end: a game played through real mail (Dovecot IMAP in, SMTP out) with the tick, the clock
moved by the test."""

from __future__ import annotations

import contextlib
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from referee.common.config import Settings
from tests.servers.dovecot import password

BOARDS = Path(__file__).resolve().parent / "boards"


@pytest.fixture(autouse=True)
def e2e_boards() -> Iterator[None]:
    old = os.environ.get("REFEREE_BOARDS")
    os.environ["REFEREE_BOARDS"] = os.pathsep.join(p for p in (str(BOARDS), old) if p)
    yield
    if old is None:
        os.environ.pop("REFEREE_BOARDS", None)
    else:
        os.environ["REFEREE_BOARDS"] = old


@pytest.fixture
def settings(dovecot, smtp_server, db_url: str, tmp_path) -> Settings:
    """The referee of these games, its users' inboxes emptied first."""
    from tests.e2e.test_game_by_mail import PLAYERS, SECRET, at

    for user in ("referee", "gm", *PLAYERS.values()):
        for box in ("INBOX", "Processed"):
            with contextlib.suppress(subprocess.CalledProcessError):  # the folder does not exist yet
                dovecot.empty(user, box)
    return Settings(database_url=db_url, referee_address=at("referee"), gm_address=at("gm"), gm_secret=SECRET,
                    signing_key="e2e", transport="imap", imap_host="127.0.0.1", imap_port=dovecot.imap_port,
                    imap_tls="none", imap_user=at("referee"), imap_password=password("referee"),
                    smtp_host="127.0.0.1", smtp_port=smtp_server.port, smtp_tls="none", mail_timeout=10.0,
                    lock_file=str(tmp_path / "tick.lock"), tick_interval=86400)
