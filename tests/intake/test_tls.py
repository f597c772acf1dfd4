"""IMAP over TLS: implicit TLS (``imap_tls = "ssl"``) and STARTTLS, against a Dovecot that speaks both."""

from __future__ import annotations

import ssl

import pytest

from referee.intake.imap import IntakeError, poll_async

from .helpers import address, append, count, incoming, mail, settings_for

pytestmark = pytest.mark.parametrize("dialect", ["sqlite"], indirect=True)


@pytest.mark.parametrize("mode", ["ssl", "starttls"])
async def test_mail_is_taken_over_tls(tls_dovecot, db_url, store, mode):
    tls_dovecot.empty("referee", "INBOX")
    settings = settings_for(tls_dovecot, db_url, imap_tls=mode,
                            imap_port=tls_dovecot.imaps_port if mode == "ssl" else tls_dovecot.imap_port)
    await append(tls_dovecot, [mail(address("alice"), f"over {mode}\n", msgid=f"<tls-{mode}@client.example.test>")])
    report = await poll_async(settings, store, ssl_context=tls_dovecot.client_context())
    assert (report.stored, report.moved) == (1, 1)
    assert [m.message_id for m in incoming(store)] == [f"<tls-{mode}@client.example.test>"]
    assert await count(tls_dovecot, "INBOX") == 0


async def test_a_certificate_that_is_not_trusted_stops_the_pass(tls_dovecot, db_url, store):
    settings = settings_for(tls_dovecot, db_url, imap_tls="ssl", imap_port=tls_dovecot.imaps_port)
    with pytest.raises(IntakeError, match=r"CERTIFICATE_VERIFY_FAILED|certificate verify failed"):
        await poll_async(settings, store, ssl_context=ssl.create_default_context())


async def test_starttls_with_a_server_that_does_not_offer_it_stops_the_pass(dovecot, db_url, store):
    settings = settings_for(dovecot, db_url, imap_tls="starttls")
    with pytest.raises(IntakeError, match="does not offer STARTTLS"):
        await poll_async(settings, store)
