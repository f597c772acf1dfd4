"""A real SMTP server on loopback (aiosmtpd) that delivers what it accepts into Dovecot over LMTP.

Only addresses of the test domain are accepted. One LMTP transaction per recipient: smtplib's LMTP
client cannot read LMTP's per-recipient replies to a multi-recipient DATA.
"""

from __future__ import annotations

import asyncio
import smtplib
from dataclasses import dataclass, field

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, Envelope, Session

from .dovecot import DOMAIN
from .ports import free_port


@dataclass
class DovecotHandler:
    lmtp_port: int
    #: SMTP reply codes to give the next DATA commands (tests of temporary/permanent failures)
    fail_next: list[str] = field(default_factory=list)
    received: int = 0

    async def handle_RCPT(self, server: SMTP, session: Session, envelope: Envelope, address: str,
                          rcpt_options: list[str]) -> str:
        if not address.lower().endswith("@" + DOMAIN):
            return "550 5.1.1 not relaying to that domain"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        if self.fail_next:
            return self.fail_next.pop(0)

        def deliver() -> dict[str, tuple[int, bytes]]:
            refused: dict[str, tuple[int, bytes]] = {}
            with smtplib.LMTP("127.0.0.1", self.lmtp_port) as lmtp:
                for rcpt in envelope.rcpt_tos:
                    try:
                        lmtp.sendmail(envelope.mail_from, [rcpt], envelope.original_content)
                    except smtplib.SMTPRecipientsRefused as exc:
                        refused.update(exc.recipients)
            return refused

        try:
            refused = await asyncio.to_thread(deliver)
        except (OSError, smtplib.SMTPException) as exc:
            return f"451 4.3.0 delivery failed: {exc}"
        if refused and len(refused) == len(envelope.rcpt_tos):
            return "550 5.1.1 all recipients refused"
        self.received += 1
        return "250 OK delivered"


@dataclass
class SmtpServer:
    port: int
    handler: DovecotHandler
    controller: Controller

    def stop(self) -> None:
        self.controller.stop()


def start_smtp(lmtp_port: int) -> SmtpServer:
    port = free_port()
    handler = DovecotHandler(lmtp_port)
    controller = Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    return SmtpServer(port, handler, controller)
