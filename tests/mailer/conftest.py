"""The mailer tests send to the real SMTP server on loopback and read what arrived over IMAP (Dovecot)."""

from __future__ import annotations

import asyncio
import email
from collections.abc import Iterator
from dataclasses import replace
from email import policy
from email.message import EmailMessage

import aioimaplib
import pytest
from tenacity import wait_none

from referee.common.config import Settings
from referee.mailer import RetryPolicy
from tests.reports.helpers import SETTINGS
from tests.servers.dovecot import password

#: no waiting between tries in a pass (the tests count tries, not seconds)
FAST = RetryPolicy(attempts=3, wait=wait_none())


@pytest.fixture
def settings(smtp_server) -> Settings:
    """The referee's settings pointing at the loopback SMTP server."""
    return replace(SETTINGS, smtp_port=smtp_server.port)


@pytest.fixture
def fail_next(smtp_server) -> Iterator[list[str]]:
    """Answers the SMTP server gives to the next DATA commands instead of delivering (cleared afterwards)."""
    answers = smtp_server.handler.fail_next
    answers.clear()
    yield answers
    answers.clear()


async def fetch(dovecot, user: str, message_id: str, *, expect: int = 1, tries: int = 150) -> list[EmailMessage]:
    """Every mail in ``user``'s inbox with this Message-ID, once at least ``expect`` are there (or the
    tries run out: then whatever there is, for the test to judge)."""
    client = aioimaplib.IMAP4("127.0.0.1", dovecot.imap_port, timeout=10)
    await client.wait_hello_from_server()
    assert (await client.login(dovecot.address(user), password(user))).result == "OK"
    found: list[bytes] = []
    try:
        for _ in range(tries):
            await client.select("INBOX")
            found = (await client.uid_search("HEADER", "Message-ID", f'"{message_id}"')).lines[0].split()
            if len(found) >= expect:
                break
            await asyncio.sleep(0.1)
        out = []
        for uid in found:
            reply = await client.uid("fetch", uid.decode(), "(BODY.PEEK[])")
            raw = next(bytes(line) for line in reply.lines if isinstance(line, bytearray))
            out.append(email.message_from_bytes(raw, policy=policy.default))
        return out  # type: ignore[return-value]
    finally:
        await client.logout()
