"""DKIM: with ``dkim_key_file`` set, every mail the referee sends carries a signature that a receiver
verifies against the public key in DNS, as it arrives in the player's mailbox (the relay's and the
mailbox's own headers added on the way), and a mail changed on the way fails."""

from __future__ import annotations

import base64
import subprocess
from pathlib import Path

import dkim
import pytest

from referee.common.config import ConfigError, Settings
from referee.mailer.transports import transport_for
from tests.intake.helpers import REFEREE, address, mail, settings_for

from .helpers import last_raw


@pytest.fixture(scope="module")
def key_pair(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, bytes]:
    """A new RSA key (as the operator makes one with openssl) and its DNS TXT record."""
    folder = tmp_path_factory.mktemp("dkim")
    key = folder / "referee.common.private"
    subprocess.run(["openssl", "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", str(key)],
                   check=True, capture_output=True)
    der = subprocess.run(["openssl", "pkey", "-in", str(key), "-pubout", "-outform", "DER"], check=True,
                         capture_output=True).stdout
    return key, b"v=DKIM1; k=rsa; p=" + base64.b64encode(der)


def _dns(record: bytes):
    def lookup(name: bytes, timeout: int = 5) -> bytes | None:
        return record if name == b"referee._domainkey.example.test." else None
    return lookup


@pytest.mark.parametrize("reply_token", ["address", "subject"])
async def test_every_mail_sent_over_smtp_arrives_signed_and_verifies(dovecot, smtp_server, tmp_path, key_pair,
                                                                      reply_token):
    key, record = key_pair
    dovecot.empty("bob")
    settings = settings_for(dovecot, f"sqlite:///{tmp_path / 'db.sqlite3'}", smtp_port=smtp_server.port,
                            dkim_key_file=str(key), reply_token=reply_token)
    raw = mail(REFEREE, "Your hand:\n 1. FWD2 670\n", to=address("bob"), subject="RR-1 turn 2: your hand",
               headers={"Reply-To": "referee+12.2.abcdefghijklmnop@example.test"})
    transport = transport_for(settings)
    await transport.send(REFEREE, [address("bob")], raw)
    await transport.close()

    arrived = await last_raw(dovecot, "bob")
    assert arrived.count(b"DKIM-Signature:") == 1
    assert b"d=example.test" in arrived and b"s=referee" in arrived
    assert dkim.verify(arrived, dnsfunc=_dns(record))
    changed = arrived.replace(b"FWD2 670", b"FWD3 670")
    assert not dkim.verify(changed, dnsfunc=_dns(record))


async def test_maildir_mail_is_signed_too(tmp_path, key_pair):
    key, record = key_pair
    settings = Settings(referee_address=REFEREE, maildir_out=str(tmp_path / "out"), dkim_key_file=str(key))
    transport = transport_for(settings)
    await transport.send(REFEREE, [address("bob")], mail(REFEREE, "hello\n", to=address("bob")))
    written = next((tmp_path / "out" / "new").iterdir()).read_bytes()
    assert dkim.verify(written, dnsfunc=_dns(record))


def test_a_key_file_that_is_no_key_is_a_configuration_error(tmp_path):
    bad = tmp_path / "key.pem"
    bad.write_text("not a key\n")
    with pytest.raises(ConfigError, match="dkim_key_file"):
        transport_for(Settings(dkim_key_file=str(bad)))
