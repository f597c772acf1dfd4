"""The IMAP connection of the intake: TLS (``imap_tls``: ``ssl``, ``starttls`` or ``none``), the login by
password or OAuth2 (XOAUTH2), and every command bounded by ``mail_timeout`` and checked for ``OK``.

Two fixes to aioimaplib 2.0.3 live here: STARTTLS, which it knows as a command but offers no method for,
and reads handed to its parser ``READ_SIZE`` bytes at a time (its cost grows with the square of a read).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import ssl
from collections.abc import Awaitable
from typing import TypeVar

import aioimaplib

from ..common.config import Settings

#: bytes handed to aioimaplib's parser at a time (see :func:`_limit_reads`)
READ_SIZE = 64 * 1024
T = TypeVar("T")


class IntakeError(Exception):
    """The mail server could not be used as configured (the message says why); nothing was lost."""


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
    mode = settings.tls_mode("imap")  # a ConfigError naming imap_tls and its values
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
