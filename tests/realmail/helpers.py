"""Sending and reading mail on the test servers, as a player's client would."""

from __future__ import annotations

import email
from email import policy
from email.message import EmailMessage

import aiosmtplib

from tests.intake.helpers import login


async def submit(port: int, raw: bytes, sender: str, recipients: list[str]) -> None:
    """Hand a mail to the SMTP server on ``port`` (loopback, no TLS), as a client's outgoing server does."""
    await aiosmtplib.send(raw, sender=sender, recipients=recipients, hostname="127.0.0.1", port=port, timeout=20)


async def last_mail(dovecot, user: str) -> EmailMessage:
    """The newest mail in ``user``'s INBOX, as the user's client shows it."""
    return email.message_from_bytes(await last_raw(dovecot, user), policy=policy.default)  # type: ignore[return-value]


async def last_raw(dovecot, user: str) -> bytes:
    client = await login(dovecot, user)
    try:
        selected = await client.select("INBOX")
        assert selected.result == "OK", selected
        response = await client.fetch("*", "(BODY.PEEK[])")
        assert response.result == "OK", response
        return bytes(next(line for line in response.lines if isinstance(line, bytearray)))
    finally:
        await client.logout()
