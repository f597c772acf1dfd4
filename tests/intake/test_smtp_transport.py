"""``transport = "smtp"``: the mail server pipes mail into ``referee ingest``, answers leave over SMTP.

There is no inbox to read, so ``referee poll`` and the tick's fetch take nothing and never open an
IMAP connection (the IMAP settings point at a port that listens but is never spoken to, and the tests
check that nobody knocked). A piped-in order is processed by the tick and its echo goes through the
real SMTP server on loopback into the player's mailbox.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest

from referee.common.config import ConfigError, Settings
from referee.common.config_load import load_settings
from referee.intake import fetch, poll_configured
from referee.mailer import SmtpTransport, transport_for
from tests.servers.ports import SilentPort
from tests.servers.processes import patience

from .helpers import (
    REFEREE,
    active_program,
    address,
    block,
    hand,
    incoming,
    mail,
    message_ids,
    new_game,
    outbox,
    program_lines,
)

ROOT = Path(__file__).resolve().parents[2]


def write_config(path: Path, *, db_url: str, imap_port: int, smtp_port: int, transport: str = "smtp") -> Path:
    """A settings file for an MTA-pipe install; the IMAP section is left in, pointing at ``imap_port``."""
    path.write_text(f"""\
database_url = "{db_url}"
referee_address = "{REFEREE}"
signing_key = "intake-tests"
transport = "{transport}"
mail_timeout = 5
lock_file = "{path.parent / 'tick.lock'}"

[imap]
host = "127.0.0.1"
port = {imap_port}
tls = "none"
password = "never-used"

[smtp]
host = "127.0.0.1"
port = {smtp_port}
tls = "none"
""")
    return path


@pytest.fixture
def config(tmp_path: Path, db_url: str, smtp_server, imap_trap: SilentPort) -> Path:
    return write_config(tmp_path / "referee.toml", db_url=db_url, imap_port=imap_trap.port, smtp_port=smtp_server.port)


def referee(config: Path, *args: str, stdin: bytes = b"") -> subprocess.CompletedProcess[str]:
    """``referee --config CONFIG ARGS`` in a process of its own, no REFEREE_* variables from the test run."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("REFEREE_")}
    proc = subprocess.run([sys.executable, "-m", "referee.cli", "--config", str(config), *args], input=stdin,
                          capture_output=True, env=env, cwd=ROOT, timeout=patience(120))
    return subprocess.CompletedProcess(proc.args, proc.returncode, proc.stdout.decode(), proc.stderr.decode())


# -- nothing to poll ---------------------------------------------------------------------------------------
def test_referee_poll_takes_nothing_and_says_mail_comes_through_ingest(config, store, imap_trap):
    polled = referee(config, "poll")
    assert polled.returncode == 0, polled.stderr
    assert "0 stored" in polled.stdout and "referee ingest" in polled.stdout
    assert incoming(store) == []
    assert not imap_trap.knocked()


def test_the_ticks_fetch_step_stores_nothing_and_opens_no_imap_connection(config, store, imap_trap):
    settings = load_settings(config, env={})
    assert settings.mail_transport == "smtp"
    report = poll_configured(settings, store, limit=10, batch=5)
    assert report.stored == 0 and "referee ingest" in report.summary()
    assert fetch(settings, store) == 0
    assert not imap_trap.knocked()


# -- mail piped in, answered over SMTP -------------------------------------------------------------------------
def test_a_piped_in_order_is_processed_by_the_tick_and_echoed_over_smtp(config, store, dovecot, smtp_server,
                                                                          imap_trap):
    code = new_game(store)
    cards = hand(store, code, "Zoom")[:5]
    raw = mail(address("carol"), block(store, code, "Zoom", program_lines(cards)))

    ingested = referee(config, "ingest", stdin=raw)
    assert ingested.returncode == 0, ingested.stderr
    assert "stored as mail" in ingested.stdout
    (stored,) = incoming(store)
    assert (stored.source, stored.outcome) == ("stdin", "new")

    delivered_before = smtp_server.handler.received
    ticked = referee(config, "tick")
    assert ticked.returncode == 0, ticked.stdout + ticked.stderr
    assert "fetched 0, processed 1" in ticked.stdout

    assert [m.outcome for m in incoming(store)] == ["accepted"]
    assert active_program(store, code, "Zoom") == cards
    (echo,) = outbox(store, kind="echo")
    assert echo.status == "sent" and echo.recipients == [address("carol")]
    sent = outbox(store, status="sent")
    assert f"sent {len(sent)}" in ticked.stdout
    assert smtp_server.handler.received == delivered_before + len(sent)
    assert echo.message_id in asyncio.run(message_ids(dovecot, "INBOX", user="carol"))
    assert not imap_trap.knocked()


# -- the value of the setting ----------------------------------------------------------------------------------
def test_smtp_sends_through_the_smtp_server_like_imap():
    for transport in ("smtp", "imap", " SMTP "):
        sender = transport_for(Settings(transport=transport, smtp_host="mail.example.test", smtp_port=2525))
        assert isinstance(sender, SmtpTransport) and sender.name == "smtp mail.example.test:2525"


def test_an_unknown_transport_is_an_error_naming_the_three(tmp_path, db_url, smtp_server, imap_trap):
    settings = Settings(transport="pop3")
    for use in (lambda: settings.mail_transport, lambda: transport_for(settings),
                lambda: poll_configured(settings, None)):
        with pytest.raises(ConfigError, match=r"maildir, imap or smtp, not 'pop3'"):
            use()
    config = write_config(tmp_path / "referee.toml", db_url=db_url, imap_port=imap_trap.port,
                          smtp_port=smtp_server.port, transport="pop3")
    polled = referee(config, "poll")   # refused when the settings load: one line, exit 2 (issue 43)
    assert polled.returncode == 2
    assert "transport = 'pop3'" in polled.stderr and "maildir, imap, smtp" in polled.stderr
    assert "Traceback" not in polled.stderr
