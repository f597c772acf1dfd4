"""``referee config check --send-test`` with ``transport = "smtp"`` (mail out over SMTP, mail in piped by the
mail server into ``referee ingest``).

The test mail goes through the real SMTP server to the referee's own plus address and is delivered into the
test Dovecot. Where the operator has an IMAP account configured, the check watches it there (and deletes
it); where the install has only the pipe, it watches the store for the mail ``referee ingest`` stored. The
pipe is played here by a thread that takes each new mail of the referee's mailbox out of Dovecot over IMAP
and runs ``referee ingest`` with it, as Postfix's ``pipe`` would.
"""

from __future__ import annotations

import imaplib
import json
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.servers.dovecot import Dovecot, password
from tests.servers.processes import patience
from tests.servers.smtp import SmtpServer

from .helpers import cron_env, run_referee
from .helpers import write_config as write_deploy_config

pytestmark = [pytest.mark.parametrize("dialect", ["sqlite"], indirect=True),
              pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS")]

REFEREE = "referee@example.test"


def write_config(path: Path, *, db_url: str, dovecot: Dovecot, smtp: SmtpServer, imap_account: bool) -> Path:
    """An MTA-pipe install; ``imap_account``: the operator also gave the referee's IMAP login."""
    return write_deploy_config(path, db_url=db_url, imap_port=dovecot.imap_port, smtp_port=smtp.port,
                               transport="smtp", imap_password=password("referee") if imap_account else None,
                               extra=f'lock_file = "{path.parent / "tick.lock"}"')


class Pipe:
    """The mail server's pipe into ``referee ingest``: every new mail in the referee's INBOX, once."""

    def __init__(self, dovecot: Dovecot, config: Path, home: Path) -> None:
        self.dovecot, self.config, self.home = dovecot, config, home
        self.stop = threading.Event()
        self.piped: list[int] = []
        #: set once an ingest has ended (the store may hold its mail before that: the commit comes first)
        self.ingested = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        with imaplib.IMAP4("127.0.0.1", self.dovecot.imap_port) as imap:
            imap.login(REFEREE, password("referee"))
            while not self.stop.is_set():
                imap.select("INBOX")
                _, found = imap.uid("SEARCH", "UNSEEN")
                for uid in found[0].split():
                    _, data = imap.uid("FETCH", uid, "(BODY[])")
                    raw = next(part[1] for part in data if isinstance(part, tuple))
                    done = subprocess.run([sys.executable, "-m", "referee.cli", "--config", str(self.config),
                                           "ingest"], input=raw, cwd=self.home, env=cron_env(self.home),
                                          capture_output=True, timeout=patience(60))
                    self.piped.append(done.returncode)
                    self.ingested.set()
                self.stop.wait(0.3)


@pytest.fixture
def pipe(request: pytest.FixtureRequest) -> Iterator[type[Pipe]]:
    started: list[Pipe] = []

    class Started(Pipe):
        def __init__(self, *args: object) -> None:
            super().__init__(*args)  # type: ignore[arg-type]
            started.append(self)
            self.thread.start()

    yield Started
    for p in started:
        p.stop.set()
        p.thread.join(10)


def test_with_an_imap_account_the_send_test_watches_the_mailbox(tmp_path: Path, home: Path, db_url: str,
                                                                 dovecot: Dovecot, smtp_server: SmtpServer) -> None:
    dovecot.empty("referee")
    config = write_config(tmp_path / "referee.toml", db_url=db_url, dovecot=dovecot, smtp=smtp_server,
                          imap_account=True)
    status, _, checks = _check_send(config, home)
    test = checks["send test"]
    assert status == 0 and test["verdict"] == "ok", test
    assert "referee+selftest-" in test["detail"] and "arrived in INBOX" in test["detail"]
    assert "deleted again" in test["detail"]
    assert checks["IMAP server"]["verdict"] == "skipped"  # the service itself still polls nothing
    assert dovecot.doveadm("search", "-u", REFEREE, "mailbox", "INBOX", "all").strip() == ""


def test_with_only_the_pipe_the_send_test_sees_referee_ingest_store_it(tmp_path: Path, home: Path, db_url: str,
                                                                        dovecot: Dovecot, smtp_server: SmtpServer,
                                                                        pipe: type[Pipe]) -> None:
    dovecot.empty("referee")
    config = write_config(tmp_path / "referee.toml", db_url=db_url, dovecot=dovecot, smtp=smtp_server,
                          imap_account=False)
    piping = pipe(dovecot, config, home)
    status, _, checks = _check_send(config, home)
    test = checks["send test"]
    assert status == 0 and test["verdict"] == "ok", test
    assert "referee+selftest-" in test["detail"] and "arrived in the store" in test["detail"]
    assert piping.ingested.wait(patience(60)) and set(piping.piped) == {0}


def test_with_no_pipe_the_verdict_names_sub_addressing_and_the_pipe(tmp_path: Path, home: Path, db_url: str,
                                                                    dovecot: Dovecot,
                                                                    smtp_server: SmtpServer) -> None:
    dovecot.empty("referee")
    config = write_config(tmp_path / "referee.toml", db_url=db_url, dovecot=dovecot, smtp=smtp_server,
                          imap_account=False)
    status, _, checks = _check_send(config, home, timeout=2)  # waits 20 s, the shortest send test
    test = checks["send test"]
    assert status == 1 and test["verdict"] == "FAILED", test
    assert "did not arrive in the store" in test["detail"]
    assert "referee ingest" in test["fix"] and "recipient_delimiter" in test["fix"]


def _check_send(config: Path, home: Path, timeout: float | None = None
                ) -> tuple[int, dict[str, Any], dict[str, dict[str, str]]]:
    """``referee --config FILE config check --json --send-test``, as cron would run it; the test mail is
    waited for ``timeout`` seconds (by default until only a hang would keep it: a mail that arrives ends
    the wait at once)."""
    timeout = timeout or patience(10)
    proc = run_referee(["--config", str(config), "config", "check", "--json", "--send-test", "--timeout",
                        f"{timeout:g}"], home=home)
    assert "Traceback" not in proc.stderr, proc.stderr
    report = json.loads(proc.stdout)
    return proc.returncode, report, {c["item"]: c for c in report["checks"]}
