"""Installed as an operator installs it: a wheel into a fresh virtual environment, a config pointing at
the mail servers, ``config check``, then one ``tick`` run as cron runs it (no terminal, a bare
environment). The GM's mail in the referee's inbox starts a game, and the mails come out the other side."""

from __future__ import annotations

import asyncio
import contextlib
import email
import subprocess
import sys
from email import policy
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

import aioimaplib
import aiosmtplib
import pytest

from tests.servers.dovecot import DOMAIN, password

from .helpers import ROOT, cron_env

GM_SECRET = "fresh-install-secret"


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``referee`` from a wheel built from this checkout, in a new venv (dependencies from the index)."""
    root = tmp_path_factory.mktemp("fresh")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(root / "dist"), str(ROOT)],
                   check=True, capture_output=True)
    subprocess.run([sys.executable, "-m", "venv", str(root / "venv")], check=True)
    wheel = next((root / "dist").glob("referee-*.whl"))
    subprocess.run([str(root / "venv" / "bin" / "pip"), "install", "-q", str(wheel)], check=True, capture_output=True)
    return root / "venv" / "bin" / "referee"


def inbox_subjects(dovecot, user: str) -> list[str]:
    async def fetch() -> list[str]:
        client = aioimaplib.IMAP4("127.0.0.1", dovecot.imap_port, timeout=10)
        await client.wait_hello_from_server()
        await client.login(f"{user}@{DOMAIN}", password(user))
        await client.select("INBOX")
        subjects = []
        for uid in (await client.uid_search("ALL")).lines[0].split():
            reply = await client.uid("fetch", uid.decode(), "(BODY.PEEK[HEADER])")
            subjects.append(str(email.message_from_bytes(bytes(reply.lines[1]), policy=policy.default)["Subject"]))
        await client.logout()
        return subjects
    return asyncio.run(fetch())


def test_a_fresh_install_checks_its_config_and_runs_a_tick_as_cron_would(installed, dovecot, smtp_server, tmp_path):
    for user, box in (("referee", "INBOX"), ("referee", "Processed"), ("gm", "INBOX"), ("alice", "INBOX"),
                      ("bob", "INBOX")):
        with contextlib.suppress(subprocess.CalledProcessError):
            dovecot.empty(user, box)
    config = tmp_path / "referee.toml"
    config.write_text(f'''
referee_address = "referee@{DOMAIN}"
gm_address = "gm@{DOMAIN}"
gm_secret = "{GM_SECRET}"
transport = "imap"
[imap]
host = "127.0.0.1"
port = {dovecot.imap_port}
tls = "none"
user = "referee@{DOMAIN}"
password = "{password("referee")}"
[smtp]
host = "127.0.0.1"
port = {smtp_server.port}
tls = "none"
''')
    home = tmp_path / "home"
    home.mkdir()

    def referee(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(installed), "--config", str(config), *args], cwd=home, env=cron_env(home),
                              stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120)

    check = referee("config", "check")
    assert check.returncode == 0, check.stdout + check.stderr
    assert check.stdout.rstrip().endswith(", 0 FAILED")

    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = f"gm@{DOMAIN}", f"referee@{DOMAIN}", "a new game"
    msg["Message-ID"] = make_msgid(domain="gm.example")
    msg.set_content(f"BEGIN GM key {GM_SECRET}\nNEWGAME RR-1 COURSE sprint\n"
                    f"ADD PLAYER alice@{DOMAIN} Twonky\nADD PLAYER bob@{DOMAIN} Hammer\nSTART\nEND\n")
    asyncio.run(aiosmtplib.send(msg, hostname="127.0.0.1", port=smtp_server.port, start_tls=False, timeout=10))

    tick = referee("tick")
    assert tick.returncode == 0, tick.stdout + tick.stderr
    assert tick.stdout.startswith("tick: fetched 1, processed 1") and tick.stdout.count("\n") == 1
    assert (tmp_path / "referee.sqlite3").exists()  # the database beside the config, made on first use
    assert any(s.startswith("RR-1 has started") for s in inbox_subjects(dovecot, "alice"))
    assert any(s.startswith("RR-1 has started") for s in inbox_subjects(dovecot, "bob"))
    gm = inbox_subjects(dovecot, "gm")
    assert any("[GM] RR-1 has started" in s for s in gm)
