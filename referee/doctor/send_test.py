"""``--send-test``: a mail to the referee's own reply address, watched until it arrives."""

from __future__ import annotations

import asyncio

from ..common.config import ConfigError, Settings
from ..mailer.config_checks import FAILED, OK, SKIPPED, Finding
from ..mailer.value_checks import transport_of

SEND_TEST = "send test"


def test_address(settings: Settings, marker: str) -> str:
    """Where the send test goes: the referee's own reply-address form (``referee+selftest-<marker>@``), or
    its plain address when tokens ride in the subject only."""
    from ..games.tokens import delimiter

    if "address" not in settings.token_places:
        return settings.referee_address
    local, _, domain = settings.referee_address.rpartition("@")
    return f"{local}{delimiter(settings)}selftest-{marker}@{domain}"


def _test_mail(settings: Settings, to: str, marker: str) -> bytes:
    from email.message import EmailMessage
    from email.utils import formatdate, make_msgid

    from ..orders.mailtext import outgoing_headers

    msg = EmailMessage()
    msg["From"] = f"{settings.referee_name} <{settings.referee_address}>"
    msg["To"] = to
    msg["Subject"] = f"referee send test {marker}"
    msg["Date"] = formatdate(localtime=False)
    msg["Message-ID"] = make_msgid(f"selftest.{marker}", domain=settings.domain)
    for name, value in outgoing_headers(settings.referee_address, reply=False).items():
        msg[name] = value
    msg.set_content("A test by 'referee config check --send-test': it is deleted when it arrives.\n"
                    "If you see it, nothing needs doing.\n")
    return msg.as_bytes()


def watches_imap(settings: Settings) -> bool:
    """Whether the send test looks for its mail over IMAP: always with ``transport = "imap"``; with ``smtp``
    only when an IMAP account is configured (``imap_user`` or an IMAP password), else in the store, where
    ``referee ingest`` puts what the mail server pipes in."""
    if transport_of(settings) == "imap":
        return True
    return bool(settings.imap_user or settings.imap_password or settings.imap_password_file)


async def send_test(settings: Settings, wait: float) -> Finding:
    """Mail the referee's own reply address through the SMTP server and watch for it until it arrives, or
    ``wait`` seconds pass: does the provider deliver plus addresses? Watched in the IMAP mailbox (then
    deleted) or, for an MTA-pipe install without one, in the store (``referee ingest``; the intake then
    ignores it as the referee's own mail)."""
    import secrets

    from ..mailer.transports import DeliveryError, transport_for

    if transport_of(settings) not in ("imap", "smtp"):
        return Finding(SEND_TEST, SKIPPED, "only with transport 'imap' or 'smtp' (maildir sends through no server)")
    marker = secrets.token_hex(6)
    to = test_address(settings, marker)
    raw = _test_mail(settings, to, marker)
    where = settings.imap_mailbox if watches_imap(settings) else "the store"
    form_fix = (f"the provider does not deliver {to} to {settings.referee_address}: turn sub-addressing on "
                f"(Postfix: recipient_delimiter = {settings.address_delimiter or '+'}; Dovecot LMTP: the same "
                "setting), set address_delimiter to the delimiter the server uses, or set reply_token = "
                "\"subject\" (no sub-addressing needed); deploy/README.md has each provider's recipe")
    if where == "the store":
        form_fix += ("; and the mail server must pipe mail for the referee's address into 'referee ingest' "
                     "(with the same --config)")
    try:
        transport = transport_for(settings)
    except ConfigError as exc:
        return Finding(SEND_TEST, FAILED, str(exc), "fix the setting named")
    try:
        refused = await transport.send(settings.referee_address, [to], raw)
    except DeliveryError as exc:
        fix = form_fix if " 5" in f" {exc}" and "address" in settings.token_places else \
            "see the SMTP lines above and the mail server's log"
        return Finding(SEND_TEST, FAILED, f"the mail to {to} was not taken: {exc}", fix)
    finally:
        await transport.close()
    if refused:
        return Finding(SEND_TEST, FAILED, f"the mail to {to} was refused: {refused.get(to, refused)}", form_fix)
    watch = _watch_imap if where != "the store" else _watch_store
    try:
        elapsed = await watch(settings, marker, wait)
    except _WatchError as exc:
        return Finding(SEND_TEST, FAILED, f"sent to {to}, then: {exc}", exc.fix)
    if elapsed is None:
        return Finding(SEND_TEST, FAILED, f"a mail to {to} was taken by {settings.smtp_host} but did not arrive in "
                                          f"{where} within {wait:g} s", form_fix + "; look in the spam "
                                          "folder too, and try again with a longer --timeout")
    how = " with the token in the subject" if "address" not in settings.token_places else ""
    kept = "deleted again" if where != "the store" else \
        "left there for the intake, which ignores the referee's own mail"
    return Finding(SEND_TEST, OK, f"a mail to {to}{how} arrived in {where} after {elapsed:.1f} s ({len(raw)} bytes); "
                                  f"{kept}")


class _WatchError(Exception):
    """The place the test mail should arrive in could not be looked at."""

    def __init__(self, text: str, fix: str) -> None:
        super().__init__(text)
        self.fix = fix


async def _watch_imap(settings: Settings, marker: str, wait: float) -> float | None:
    """Seconds until the test mail was in the IMAP mailbox (then deleted), or None after ``wait`` seconds."""
    import time

    from ..intake.imap import IntakeError, connect, search_uids, select

    start = time.monotonic()
    conn = None
    try:
        conn = await connect(settings)
        while True:
            await select(conn, settings.imap_mailbox)
            found = await search_uids(conn, "HEADER", "Subject", f'"{marker}"')
            if found:
                elapsed = time.monotonic() - start
                uid_set = ",".join(str(u) for u in found)
                await conn.call("UID STORE", conn.client.uid("store", uid_set, "+FLAGS", "(\\Deleted)"))
                if "UIDPLUS" in conn.capabilities:
                    await conn.call("UID EXPUNGE", conn.client.uid("expunge", uid_set))
                return elapsed
            if time.monotonic() - start > wait:
                return None
            await asyncio.sleep(1.0)
    except (IntakeError, ConfigError) as exc:
        raise _WatchError(str(exc), "see the IMAP lines above (imap_* settings)") from None
    finally:
        if conn is not None:
            await conn.close()


async def _watch_store(settings: Settings, marker: str, wait: float) -> float | None:
    """Seconds until ``referee ingest`` stored the test mail, or None after ``wait`` seconds (read only)."""
    import time

    from sqlalchemy import select

    from ..store.db import Store
    from ..store.errors import StoreError
    from ..store.mail_models import IncomingMail

    start = time.monotonic()
    store = None
    query = select(IncomingMail.id).where(IncomingMail.subject.contains(marker)).limit(1)
    try:
        store = Store(settings.database_url)
        while True:
            with store.read() as s:
                if s.execute(query).first() is not None:
                    return time.monotonic() - start
            if time.monotonic() - start > wait:
                return None
            await asyncio.sleep(1.0)
    except StoreError as exc:
        raise _WatchError(f"the store cannot be read: {exc}", "see the database line above") from None
    except Exception as exc:  # no schema yet (never ingested), a driver error: a verdict, not a traceback
        raise _WatchError(f"the store cannot be read: {type(exc).__name__}: {exc}",
                          "run 'referee db upgrade', and see the database line above") from None
    finally:
        if store is not None:
            store.close()
