"""The test mail servers are real: a mail sent over SMTP is read back over IMAP."""

import asyncio
import email
import email.policy
from email.message import EmailMessage

import aioimaplib
import aiosmtplib

from tests.servers.dovecot import password


async def fetch_subject(dovecot, user: str, subject: str) -> email.message.EmailMessage:
    client = aioimaplib.IMAP4("127.0.0.1", dovecot.imap_port, timeout=10)
    await client.wait_hello_from_server()
    assert (await client.login(dovecot.address(user), password(user))).result == "OK"
    try:
        for _ in range(150):  # 15 s: delivery goes through LMTP
            await client.select("INBOX")
            found = (await client.uid_search("HEADER", "Subject", f'"{subject}"')).lines[0].split()
            if found:
                reply = await client.uid("fetch", found[-1].decode(), "(BODY.PEEK[])")
                return email.message_from_bytes(bytes(reply.lines[1]), policy=email.policy.default)
            await asyncio.sleep(0.1)
    finally:
        await client.logout()
    raise AssertionError(f"{subject!r} never arrived")


async def test_a_mail_sent_over_smtp_arrives_in_the_imap_inbox(dovecot, smtp_server):
    msg = EmailMessage()
    msg["From"] = dovecot.address("referee")
    msg["To"] = dovecot.address("alice")
    msg["Subject"] = "RR-1 turn 1 report"
    msg.set_content("The board as it stands.\n")
    await aiosmtplib.send(msg, hostname="127.0.0.1", port=smtp_server.port, start_tls=False, timeout=10)
    got = await fetch_subject(dovecot, "alice", "RR-1 turn 1 report")
    assert got.get_content().replace("\r\n", "\n") == "The board as it stands.\n"
    assert got["Delivered-To"] == dovecot.address("alice")
