"""Fixtures shared by the whole suite: real mail servers on loopback, started once per session."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.servers.dovecot import Dovecot, start_dovecot
from tests.servers.smtp import SmtpServer, start_smtp


@pytest.fixture(scope="session")
def dovecot() -> Iterator[Dovecot]:
    """A private Dovecot with users referee@, gm@, alice@ ... player20@example.test (password: user-pw).

    Its directory is not under pytest's tmp (mode 0700): Dovecot's own users must reach the files.
    """
    root = Path(tempfile.mkdtemp(prefix="referee-dovecot-"))
    server = start_dovecot(root)
    yield server
    server.stop()
    shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(scope="session")
def smtp_server(dovecot: Dovecot) -> Iterator[SmtpServer]:
    """An SMTP server on loopback delivering into the Dovecot above."""
    server = start_smtp(dovecot.lmtp_port)
    yield server
    server.stop()
