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
from tests.servers.processes import patience

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
                              stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=patience(120))

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


# -- the whole first day, from `referee config init` to the README's first game ----------------------------------
def set_key(text: str, table: str, key: str, value: str) -> str:
    """``text`` (the sample) with ``key`` of ``[table]`` ("" for the top) set to ``value`` (a TOML literal), as an
    operator edits it: the line is changed in place, or added at the top of the table."""
    lines = text.splitlines()
    current = ""
    for i, line in enumerate(lines):
        stripped = line.strip()
        if stripped.startswith("[") and stripped.endswith("]"):
            current = stripped[1:-1]
        elif current == table and (stripped.startswith(f"{key} =") or stripped.startswith(f"# {key} =")):
            lines[i] = f"{key} = {value}"
            return "\n".join(lines) + "\n"
    at = lines.index(f"[{table}]") + 1 if table else 0
    lines.insert(at, f"{key} = {value}")
    return "\n".join(lines) + "\n"


def readme_first_game() -> str:
    """The GM block of the README's "First game", as written there."""
    readme = (ROOT / "README.md").read_text()
    start = readme.index("        BEGIN GM key <gm_secret>")
    end = readme.index("        END\n", start) + len("        END\n")
    return "\n".join(line.strip() for line in readme[start:end].splitlines()) + "\n"


def test_config_init_then_the_readme_first_game_from_the_installed_wheel(installed, dovecot, smtp_server, tmp_path):
    for user, box in (("referee", "INBOX"), ("referee", "Processed"), ("gm", "INBOX"), ("alice", "INBOX"),
                      ("bob", "INBOX")):
        with contextlib.suppress(subprocess.CalledProcessError):
            dovecot.empty(user, box)
    home = tmp_path / "operator"    # outside the checkout: the installed files are all it has
    home.mkdir()
    config = home / "etc" / "referee.toml"

    def referee(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(installed), *args], cwd=home, env=cron_env(home), stdin=subprocess.DEVNULL,
                              capture_output=True, text=True, timeout=patience(120))

    made = referee("config", "init", str(config))
    assert made.returncode == 0, made.stdout + made.stderr
    assert (config.stat().st_mode & 0o777) == 0o600
    shipped = Path(made.stdout.splitlines()[-1].split(": ", 1)[1])
    assert (shipped / "systemd" / "referee-tick.service").is_file() and (shipped / "mail" / "procmailrc").is_file()
    assert not shipped.is_relative_to(ROOT)
    venv = installed.parent.parent
    assert list(venv.glob("lib/python3*/site-packages/referee-*.dist-info/**/LICENSE")), "the wheel carries LICENSE"
    text = config.read_text()
    secret = next(line.split('"')[1] for line in text.splitlines() if line.startswith("gm_secret = "))
    assert len(secret) >= 20

    # the operator's edits: where the state lives, the addresses, the two mail servers
    state = home / "state"
    (home / "imap.password").write_text(password("referee") + "\n")
    text = text.replace("/var/lib/referee", str(state))
    for table, key, value in (
            ("", "referee_address", f'"referee@{DOMAIN}"'), ("", "gm_address", f'"gm@{DOMAIN}"'),
            ("imap", "host", '"127.0.0.1"'), ("imap", "port", str(dovecot.imap_port)), ("imap", "tls", '"none"'),
            ("imap", "user", f'"referee@{DOMAIN}"'), ("imap", "password_file", f'"{home / "imap.password"}"'),
            ("smtp", "host", '"127.0.0.1"'), ("smtp", "port", str(smtp_server.port)), ("smtp", "tls", '"none"'),
            ("smtp", "user", '""'), ("smtp", "password_file", '""')):
        text = set_key(text, table, key, value)
    config.write_text(text)
    state.mkdir()

    check = referee("--config", str(config), "config", "check")
    assert check.returncode == 0, check.stdout + check.stderr
    assert check.stdout.rstrip().endswith(", 0 FAILED")

    block = readme_first_game().replace("<gm_secret>", secret).replace("example.org", DOMAIN)
    assert block.splitlines()[1] == "NEWGAME RR-1 COURSE sprint DEADLINE 5d"
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = f"gm@{DOMAIN}", f"referee@{DOMAIN}", "first game"
    msg["Message-ID"] = make_msgid(domain="gm.example")
    msg.set_content(block)
    asyncio.run(aiosmtplib.send(msg, hostname="127.0.0.1", port=smtp_server.port, start_tls=False, timeout=10))

    tick = referee("--config", str(config), "tick")
    assert tick.returncode == 0, tick.stdout + tick.stderr
    assert (state / "referee.sqlite3").exists()
    assert any(s.startswith("RR-1 has started") for s in inbox_subjects(dovecot, "alice"))
    assert any(s.startswith("RR-1 has started") for s in inbox_subjects(dovecot, "bob"))
    assert "Your GM commands: accepted" in inbox_subjects(dovecot, "gm")
    listed = referee("--config", str(config), "game", "list")
    assert listed.returncode == 0 and "RR-1" in listed.stdout and "running" in listed.stdout, listed.stdout
