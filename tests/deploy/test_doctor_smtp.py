"""``referee config check`` for an MTA-pipe install (``transport = "smtp"``) and for a transport it does not know.

With ``smtp`` the SMTP server is tried as for ``imap``; IMAP is reported as not used, nothing is said
about its settings or password, and no IMAP connection is opened (its port listens but is never
spoken to). A transport that is none of the three is a FAILED item naming them.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.servers.ports import SilentPort, free_port
from tests.servers.smtp import SmtpServer

from .helpers import check_json
from .helpers import write_config as write_deploy_config

SMTP_ITEMS = ["SMTP server", "SMTP login", "SMTP sender"]


def write_config(path: Path, *, db_url: str, smtp_port: int, imap_port: int, transport: str = "smtp") -> Path:
    """An MTA-pipe install: no IMAP password anywhere, the IMAP host left at a port nobody answers on."""
    return write_deploy_config(path, db_url=db_url, imap_port=imap_port, smtp_port=smtp_port, transport=transport,
                               imap_password=None, extra=f'lock_file = "{path.parent / "tick.lock"}"')


def test_with_transport_smtp_smtp_is_checked_and_imap_is_not_used(tmp_path: Path, home: Path, db_url: str,
                                                                   smtp_server: SmtpServer,
                                                                   imap_trap: SilentPort) -> None:
    config = write_config(tmp_path / "referee.toml", db_url=db_url, smtp_port=smtp_server.port,
                          imap_port=imap_trap.port)
    status, report, checks = check_json(["--config", str(config)], home=home)
    assert status == 0, json.dumps(report, indent=1)
    transport = checks["transport"]
    assert transport["verdict"] == "ok"
    assert "referee ingest" in transport["detail"] and f"127.0.0.1:{smtp_server.port}" in transport["detail"]
    for item in SMTP_ITEMS:
        assert checks[item]["verdict"] == "ok", checks[item]
    assert "accepted as sender" in checks["SMTP sender"]["detail"]
    assert checks["SMTP settings"]["verdict"] == "ok"
    imap = checks["IMAP server"]
    assert imap["verdict"] == "skipped" and "not used with transport 'smtp'" in imap["detail"]
    assert not {"IMAP login", "IMAP mailbox", "IMAP processed folder", "IMAP settings"} & set(checks)
    assert checks["passwords"]["verdict"] == "ok" and "imap" not in checks["passwords"]["detail"].lower()
    noted = [c for c in report["checks"] if c["verdict"] in ("warning", "FAILED")]
    assert not [c for c in noted if "imap" in (c["detail"] + c["fix"]).lower()], noted
    assert not imap_trap.knocked()


def test_with_transport_smtp_a_closed_smtp_port_fails(tmp_path: Path, home: Path, db_url: str,
                                                       imap_trap: SilentPort) -> None:
    closed = free_port()
    config = write_config(tmp_path / "referee.toml", db_url=db_url, smtp_port=closed, imap_port=imap_trap.port)
    status, _, checks = check_json(["--config", str(config)], home=home)
    assert status == 1
    server = checks["SMTP server"]
    assert server["verdict"] == "FAILED" and f"127.0.0.1:{closed}" in server["detail"]
    assert "smtp_port" in server["fix"]
    assert checks["SMTP login"]["verdict"] == "skipped"
    assert checks["IMAP server"]["verdict"] == "skipped"
    assert not imap_trap.knocked()


@pytest.mark.parametrize("dialect", ["sqlite"], indirect=True)
def test_an_unknown_transport_fails_and_names_the_three(tmp_path: Path, home: Path, db_url: str,
                                                        smtp_server: SmtpServer, imap_trap: SilentPort) -> None:
    config = write_config(tmp_path / "referee.toml", db_url=db_url, smtp_port=smtp_server.port,
                          imap_port=imap_trap.port, transport="pop3")
    status, _, checks = check_json(["--config", str(config)], home=home)
    assert status == 1
    transport = checks["transport"]
    assert transport["verdict"] == "FAILED" and "'pop3'" in transport["detail"]
    assert "maildir, imap or smtp" in transport["detail"]
    assert all(f'"{name}"' in transport["fix"] for name in ("maildir", "imap", "smtp"))
    assert checks["mail servers"]["verdict"] == "skipped" and "not known" in checks["mail servers"]["detail"]
    assert not imap_trap.knocked()
