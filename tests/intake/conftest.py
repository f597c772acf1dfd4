"""Fixtures for the intake tests: the referee's mailbox on the test Dovecot, emptied for each test, and
settings that read it into the test database (``store``: SQLite and PostgreSQL)."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path

import pytest

from referee.common.config import Settings
from referee.intake.imap import PollReport, poll_async
from referee.intake.process import GmHandler, ProcessReport, process_pending
from referee.store import Store

from .helpers import append, settings_for
from .tls_dovecot import TlsDovecot, start_tls_dovecot


@pytest.fixture
def settings(dovecot, db_url: str) -> Settings:
    """The referee's settings for this test's database; its INBOX and Processed folder start empty."""
    dovecot.empty("referee", "INBOX")
    dovecot.empty("referee", "Processed")
    return settings_for(dovecot, db_url)


Take = Callable[..., Awaitable[tuple[PollReport, ProcessReport]]]


@pytest.fixture
def take(dovecot, settings: Settings, store: Store) -> Take:
    """``await take(raw, ...)``: deliver mails to the referee's INBOX, poll them in, process them."""

    async def run(*raws: bytes, gm_handler: GmHandler | None = None,
                  settings: Settings = settings) -> tuple[PollReport, ProcessReport]:
        await append(dovecot, list(raws))
        polled = await poll_async(settings, store)
        return polled, process_pending(store, settings, gm_handler=gm_handler)

    return run


@pytest.fixture(scope="session")
def tls_dovecot() -> Iterator[TlsDovecot]:
    """A Dovecot of its own that speaks TLS (IMAPS, and STARTTLS on the plain port)."""
    root = Path(tempfile.mkdtemp(prefix="referee-dovecot-tls-"))
    server = start_tls_dovecot(root)
    yield server
    server.stop()
    shutil.rmtree(root, ignore_errors=True)
