"""How a mail leaves: over SMTP (aiosmtplib) or into a Maildir (the embedded default, no servers).

A transport's :meth:`~Transport.send` hands one mail to the next hop and says how it went by raising one
of three errors: :class:`TemporaryError` (try again later: a 4xx answer, a dropped connection),
:class:`PermanentError` (this mail will never go: a 5xx answer about it) or :class:`ServerDown`, a
temporary error about the server itself rather than the mail (no connection, login refused, our sender
refused), after which a pass stops instead of trying every other mail. It returns the recipients the
server refused while it took the mail for the others (``{address: "550 ..."}``).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import socket
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Protocol

import aiosmtplib

from ..common.config import Settings
from ..common.private import make_private_dirs, open_private
from .dkim import signer_for
from .oauth2 import OAuth2Error, access_token_async, login_hint
from .reply_tokens import move_to_subject


class DeliveryError(Exception):
    """A mail was not handed over. ``str(exc)`` is what the outbox records (e.g. ``451 4.3.0 try later``)."""


class TemporaryError(DeliveryError):
    """Not now; the same mail may go later."""


class ServerDown(TemporaryError):
    """The server, not the mail, is the problem: stop this pass, keep every mail for the next."""


class PermanentError(DeliveryError):
    """This mail will never be accepted as it is."""


class Transport(Protocol):
    #: for logs and summaries, e.g. ``smtp localhost:587``
    name: str

    async def send(self, sender: str, recipients: Sequence[str], raw: bytes) -> dict[str, str]:
        """Hand over one mail; the recipients refused while others were accepted. Raises a :class:`DeliveryError`."""
        ...

    async def close(self) -> None: ...


def _reply(code: int | None, message: str) -> str:
    text = " ".join(str(message).split())
    return f"{code} {text}".strip() if code is not None else text


# -- SMTP ----------------------------------------------------------------------------------------------------
class SmtpTransport:
    """An SMTP submission server (``smtp_host``, ``smtp_port``, ``smtp_tls``, ``smtp_user``, ``smtp_password``).

    One connection is kept for a whole pass and opened again after it drops.
    """

    def __init__(self, settings: Settings) -> None:
        self.tls = settings.tls_mode("smtp")  # a ConfigError naming smtp_tls and its values
        self.host = settings.smtp_host
        self.port = settings.smtp_port
        self.user = settings.smtp_user
        if not settings.oauth2 and settings.smtp_user:
            settings.secret("smtp_password")  # an unreadable password file is a ConfigError now, not at send
        self.timeout = settings.mail_timeout
        self.settings = settings
        self.name = f"smtp {self.host}:{self.port}"
        self._smtp: aiosmtplib.SMTP | None = None

    async def _connection(self) -> aiosmtplib.SMTP:
        if self._smtp is not None and self._smtp.is_connected:
            return self._smtp
        smtp = smtp_client(self.settings, self.timeout)
        try:
            await smtp.connect()
        except OAuth2Error as exc:
            raise ServerDown(f"{self.name}: no OAuth2 token: {exc}") from None
        except aiosmtplib.SMTPAuthenticationError as exc:
            raise ServerDown(f"{self.name}: login refused: {_reply(exc.code, exc.message)} "
                             f"({login_hint(self.settings, 'SMTP')})") from None
        except aiosmtplib.SMTPResponseException as exc:
            raise ServerDown(f"{self.name}: {_reply(exc.code, exc.message)}") from None
        except (aiosmtplib.SMTPException, OSError) as exc:
            raise ServerDown(f"{self.name}: cannot connect: {exc}") from None
        self._smtp = smtp
        return smtp

    async def _drop(self) -> None:
        smtp, self._smtp = self._smtp, None
        if smtp is not None:
            smtp.close()

    async def send(self, sender: str, recipients: Sequence[str], raw: bytes) -> dict[str, str]:
        smtp = await self._connection()
        try:
            refused, _ = await smtp.sendmail(sender, list(recipients), raw)
        except aiosmtplib.SMTPRecipientsRefused as exc:
            why = "; ".join(f"{r.recipient}: {_reply(r.code, r.message)}" for r in exc.recipients)
            if all(r.code >= 500 for r in exc.recipients):
                raise PermanentError(why) from None
            raise TemporaryError(why) from None
        except aiosmtplib.SMTPSenderRefused as exc:
            raise ServerDown(f"sender {exc.sender} refused: {_reply(exc.code, exc.message)}") from None
        except aiosmtplib.SMTPResponseException as exc:
            if exc.code == 421:  # the server is closing the connection
                await self._drop()
                raise ServerDown(_reply(exc.code, exc.message)) from None
            if exc.code >= 500:
                raise PermanentError(_reply(exc.code, exc.message)) from None
            raise TemporaryError(_reply(exc.code, exc.message)) from None
        except (aiosmtplib.SMTPException, OSError) as exc:
            # dropped, timed out, or something the server said that makes no sense: start afresh
            await self._drop()
            raise TemporaryError(f"{type(exc).__name__}: {exc}") from None
        except ValueError as exc:  # an address that cannot be written in an SMTP command
            raise PermanentError(f"bad address: {exc}") from None
        return {addr: _reply(resp.code, resp.message) for addr, resp in refused.items()}

    async def close(self) -> None:
        smtp, self._smtp = self._smtp, None
        if smtp is not None and smtp.is_connected:
            try:
                await smtp.quit()
            except (aiosmtplib.SMTPException, OSError):
                smtp.close()


def smtp_client(settings: Settings, timeout: float) -> aiosmtplib.SMTP:
    """An aiosmtplib client (not yet connected) that logs in as the settings say: a password, XOAUTH2 with
    a token from :mod:`.oauth2` (``mail_auth = "oauth2"``; the user is ``smtp_user``, else the referee's
    address), or not at all (no ``smtp_user``)."""
    tls = settings.tls_mode("smtp")
    common: dict[str, object] = {"hostname": settings.smtp_host, "port": settings.smtp_port, "timeout": timeout,
                                 "use_tls": tls == "ssl", "start_tls": tls == "starttls"}
    if settings.oauth2:
        async def token() -> str:
            return await access_token_async(settings)

        return aiosmtplib.SMTP(**common, username=settings.smtp_user or settings.referee_address,  # type: ignore[arg-type]
                               oauth_token_generator=token)
    user = settings.smtp_user
    return aiosmtplib.SMTP(**common, username=user or None,  # type: ignore[arg-type]
                           password=(settings.secret("smtp_password") or None) if user else None)


# -- on the way out ------------------------------------------------------------------------------------------
class PreparedTransport:
    """Another transport, each mail first passed through ``steps`` in order: the reply token moved to the
    subject (:mod:`.reply_tokens`), then the DKIM signature (:mod:`.dkim`), which must see the final header."""

    def __init__(self, inner: Transport, steps: Sequence[Callable[[bytes], bytes]], what: str) -> None:
        self.inner = inner
        self.steps = list(steps)
        self.name = f"{inner.name}{what}"

    async def send(self, sender: str, recipients: Sequence[str], raw: bytes) -> dict[str, str]:
        for step in self.steps:
            raw = step(raw)
        return await self.inner.send(sender, recipients, raw)

    async def close(self) -> None:
        await self.inner.close()


# -- Maildir -------------------------------------------------------------------------------------------------
class MaildirTransport:
    """Outgoing mail written into a Maildir (``maildir_out``) for whatever picks it up.

    Each mail is one file in ``new/``, written to ``tmp/`` first and renamed, owner-only (0600, its new
    directories 0700) whatever the umask. Its name comes from the
    mail's Message-ID, so writing the same mail again (a resend after a crash) replaces the file instead
    of adding one. The envelope goes in front of the mail as ``Return-Path`` and ``X-Envelope-To`` headers.
    """

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.name = f"maildir {directory}"

    @classmethod
    def from_settings(cls, settings: Settings) -> MaildirTransport:
        return cls(settings.path(settings.maildir_out))

    def _ensure(self) -> None:
        for sub in ("tmp", "new", "cur"):
            make_private_dirs(self.directory / sub)

    async def send(self, sender: str, recipients: Sequence[str], raw: bytes) -> dict[str, str]:
        envelope = f"Return-Path: <{sender}>\r\nX-Envelope-To: {', '.join(recipients)}\r\n".encode()
        name = f"{_stable_name(raw)}.{socket.gethostname().replace('/', '_').replace(':', '_')}"
        tmp = self.directory / "tmp" / name
        try:
            self._ensure()
            with os.fdopen(open_private(tmp), "wb") as fh:  # turn mails carry keys: owner-only
                fh.write(envelope + raw)
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, self.directory / "new" / name)
        except OSError as exc:
            with contextlib.suppress(OSError):   # a full disk leaves no empty or half file behind
                tmp.unlink()
            raise ServerDown(f"{self.name}: {exc.strerror or exc}") from None
        return {}

    async def close(self) -> None:
        return None


def _stable_name(raw: bytes) -> str:
    """A file name from the Message-ID (else the bytes): the same mail always gets the same name."""
    head = raw.split(b"\r\n\r\n", 1)[0].split(b"\n\n", 1)[0]
    ident = b""
    for line in head.splitlines():
        if line.lower().startswith(b"message-id:"):
            ident = line.split(b":", 1)[1].strip()
            break
    return "referee-" + hashlib.sha256(ident or raw).hexdigest()[:32]


def transport_for(settings: Settings) -> Transport:
    """The transport the settings name: ``maildir`` (the default), or SMTP for ``imap`` and ``smtp``; DKIM-signed
    when ``dkim_key_file`` is set.

    An unknown transport is a :class:`ConfigError` naming the valid ones."""
    inner: Transport
    if settings.mail_transport == "maildir":
        inner = MaildirTransport.from_settings(settings)
    else:
        inner = SmtpTransport(settings)
    steps: list[Callable[[bytes], bytes]] = []
    what = ""
    if "subject" in settings.token_places:
        steps.append(lambda raw: move_to_subject(raw, settings))
        what += ", reply token in the subject"
    signer = signer_for(settings)
    if signer is not None:
        steps.append(signer.sign)
        what += f", DKIM {signer.selector.decode()}._domainkey.{signer.domain.decode()}"
    return PreparedTransport(inner, steps, what) if steps else inner
