"""``referee config check`` against the real Dovecot, SMTP server and databases, run as cron runs it.

A configuration that works gets ``ok`` for every part; a wrong password, a closed port, a database
without the schema or a misspelt setting each get ``FAILED`` with the reason and the fix, and exit
status 1. Secrets never appear in what it prints.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword
from sqlalchemy import text
from sqlalchemy.engine import make_url

from referee.store import Store
from tests.servers.dovecot import Dovecot
from tests.servers.ports import free_port
from tests.servers.smtp import SmtpServer

from .helpers import check_json, run_referee, write_config

MAIL_ITEMS = ["IMAP server", "IMAP login", "IMAP mailbox", "IMAP processed folder",
              "SMTP server", "SMTP login", "SMTP sender"]


@pytest.fixture
def config(tmp_path: Path, db_url: str, dovecot: Dovecot, smtp_server: SmtpServer) -> Path:
    return write_config(tmp_path / "referee.toml", db_url=db_url, imap_port=dovecot.imap_port,
                        smtp_port=smtp_server.port)


def test_a_working_setup_is_ok_item_by_item(config: Path, home: Path, db_url: str) -> None:
    status, report, checks = check_json(["--config", str(config)], home=home)
    assert status == 0, json.dumps(report, indent=1)
    assert report["ok"] is True and report["counts"]["FAILED"] == 0
    for item in ["config file", "database", "boards", "lock file", "fonts", *MAIL_ITEMS]:
        assert checks[item]["verdict"] == "ok", checks[item]
    assert "logged in as referee@example.test" in checks["IMAP login"]["detail"]
    assert checks["IMAP processed folder"]["detail"].startswith("Processed")
    assert "accepted as sender" in checks["SMTP sender"]["detail"]
    assert make_url(db_url).get_backend_name() in checks["database"]["detail"]


def test_the_text_report_has_one_verdict_per_item(config: Path, home: Path) -> None:
    proc = run_referee(["--config", str(config), "config", "check"], home=home)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].startswith(f"referee config check: {config}")
    for item in MAIL_ITEMS:
        assert any(line.split()[0] == "ok" and f" {item} " in line for line in lines), (item, proc.stdout)
    assert lines[-1].endswith("0 FAILED")


def test_doctor_is_the_same_check(config: Path, home: Path) -> None:
    proc = run_referee(["--config", str(config), "doctor", "--json"], home=home)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    verdicts = {c["item"]: c["verdict"] for c in json.loads(proc.stdout)["checks"]}
    assert all(verdicts[item] == "ok" for item in MAIL_ITEMS)


def test_a_wrong_imap_password_fails_the_login(tmp_path: Path, home: Path, db_url: str, dovecot: Dovecot,
                                                smtp_server: SmtpServer) -> None:
    config = write_config(tmp_path / "referee.toml", db_url=db_url, imap_port=dovecot.imap_port,
                          smtp_port=smtp_server.port, imap_password="not-the-password")
    status, _, checks = check_json(["--config", str(config)], home=home)
    assert status == 1
    assert checks["IMAP server"]["verdict"] == "ok"
    login = checks["IMAP login"]
    assert login["verdict"] == "FAILED"
    assert "referee@example.test" in login["detail"] and "refused" in login["detail"]
    assert "imap_password" in login["fix"]
    assert checks["IMAP mailbox"]["verdict"] == "skipped"
    assert checks["SMTP server"]["verdict"] == "ok"  # the other server is still tried


def test_closed_ports_fail_the_connection(tmp_path: Path, home: Path, db_url: str) -> None:
    closed_imap, closed_smtp = free_port(), free_port()
    config = write_config(tmp_path / "referee.toml", db_url=db_url, imap_port=closed_imap, smtp_port=closed_smtp)
    status, _, checks = check_json(["--config", str(config)], home=home)
    assert status == 1
    for kind, port in (("IMAP", closed_imap), ("SMTP", closed_smtp)):
        server = checks[f"{kind} server"]
        assert server["verdict"] == "FAILED"
        assert f"127.0.0.1:{port}" in server["detail"] and "refused" in server["detail"].lower()
        assert f"{kind.lower()}_port" in server["fix"]
        assert checks[f"{kind} login"]["verdict"] == "skipped"


def test_a_database_without_the_schema(tmp_path: Path, home: Path, empty_url: str, dialect: str,
                                       dovecot: Dovecot, smtp_server: SmtpServer) -> None:
    config = write_config(tmp_path / "referee.toml", db_url=empty_url, imap_port=dovecot.imap_port,
                          smtp_port=smtp_server.port)
    status, _, checks = check_json(["--config", str(config)], home=home)
    database = checks["database"]
    if dialect == "postgresql":
        assert status == 1
        assert database["verdict"] == "FAILED"
        assert "no referee schema" in database["detail"]
        assert "referee db upgrade" in database["fix"]
    else:  # the embedded default: the first run creates the file, and the check creates nothing
        assert status == 0
        assert database["verdict"] == "ok" and "first run creates" in database["detail"]
        assert not Path(make_url(empty_url).database or "").exists()


def test_a_schema_this_version_does_not_know(config: Path, home: Path, db_url: str) -> None:
    with Store(db_url) as store, store.write() as s:
        s.execute(text("UPDATE alembic_version SET version_num = 'f00dfeed0000'"))
    status, _, checks = check_json(["--config", str(config)], home=home)
    assert status == 1
    database = checks["database"]
    assert database["verdict"] == "FAILED" and "f00dfeed0000" in database["detail"]
    assert "does not know" in database["detail"]


def test_unknown_settings_are_named_with_a_suggestion(tmp_path: Path, home: Path, dovecot: Dovecot,
                                                       smtp_server: SmtpServer) -> None:
    config = write_config(tmp_path / "referee.toml", db_url=f"sqlite:///{tmp_path / 'db.sqlite3'}",
                          imap_port=dovecot.imap_port, smtp_port=smtp_server.port, extra='refere_address = "x@y.z"')
    status, report, checks = check_json(["--config", str(config)], home=home,
                                        env={"REFEREE_IMAP_HOTS": "mail.example.test"})
    assert status == 1
    assert checks["config file"]["verdict"] == "FAILED"
    assert "'refere_address'" in checks["config file"]["detail"]
    assert "did you mean referee_address?" in checks["config file"]["detail"]
    assert checks["database"]["verdict"] == "skipped"  # nothing is tried with settings that did not load
    assert report["settings"] is None


def test_a_misspelt_variable_and_a_test_clock_are_warnings(config: Path, home: Path) -> None:
    status, _, checks = check_json(["--config", str(config)], home=home,
                                   env={"REFEREE_IMAP_HOTS": "mail.example.test", "REFEREE_NOW": "2026-01-01T12:00"})
    assert status == 0  # warnings do not fail the check
    env = checks["environment"]
    assert env["verdict"] == "warning"
    assert "REFEREE_IMAP_HOTS is not a setting (did you mean imap_host?)" in env["detail"]
    assert "REFEREE_NOW" in env["detail"]


def test_values_out_of_range(tmp_path: Path, home: Path, dovecot: Dovecot, smtp_server: SmtpServer) -> None:
    config = write_config(tmp_path / "referee.toml", db_url=f"sqlite:///{tmp_path / 'db.sqlite3'}",
                          imap_port=dovecot.imap_port, smtp_port=smtp_server.port)
    status, _, checks = check_json(["--config", str(config)], home=home, env={
        "REFEREE_GM_SECRET": "", "REFEREE_REFEREE_ADDRESS": "the referee", "REFEREE_SMTP_TLS": "tls",
        "REFEREE_DEFAULT_DEADLINE": "soon", "REFEREE_DEFAULT_COURSE": "atlantis"})
    assert status == 1
    assert checks["GM"]["verdict"] == "FAILED" and "gm_secret" in checks["GM"]["detail"]
    assert checks["addresses"]["verdict"] == "FAILED" and "'the referee'" in checks["addresses"]["detail"]
    assert checks["SMTP settings"]["verdict"] == "FAILED" and "'tls'" in checks["SMTP settings"]["detail"]
    assert checks["game defaults"]["verdict"] == "FAILED" and "default_deadline" in checks["game defaults"]["detail"]
    assert checks["boards"]["verdict"] == "FAILED" and "'atlantis'" in checks["boards"]["detail"]


def test_a_missing_processed_folder_is_a_warning(config: Path, home: Path) -> None:
    status, _, checks = check_json(["--config", str(config)], home=home,
                                   env={"REFEREE_IMAP_PROCESSED": "Done/Referee"})
    assert status == 0
    folder = checks["IMAP processed folder"]
    assert folder["verdict"] == "warning" and "first tick creates it" in folder["detail"]


def test_a_missing_mailbox_fails(config: Path, home: Path) -> None:
    status, _, checks = check_json(["--config", str(config)], home=home, env={"REFEREE_IMAP_MAILBOX": "Orders"})
    assert status == 1
    assert checks["IMAP mailbox"]["verdict"] == "FAILED" and "Orders" in checks["IMAP mailbox"]["detail"]


# -- an SMTP server that wants a login ----------------------------------------------------------------------
class _Handler:
    async def handle_DATA(self, server: object, session: object, envelope: object) -> str:
        raise AssertionError("config check must not send mail")


class _Authenticator:
    def __init__(self) -> None:
        self.logins: list[str] = []
        self.lock = threading.Lock()

    def __call__(self, server: object, session: object, envelope: object, mechanism: str,
                 auth_data: object) -> AuthResult:
        ok = isinstance(auth_data, LoginPassword) and auth_data.login == b"sender" and auth_data.password == b"s-pw"
        with self.lock:
            self.logins.append(f"{mechanism}:{'ok' if ok else 'refused'}")
        return AuthResult(success=ok, handled=False)


@pytest.fixture(scope="module")
def auth_smtp() -> Iterator[tuple[int, _Authenticator]]:
    """A real aiosmtpd that offers AUTH PLAIN/LOGIN without TLS (loopback) and takes one user."""
    port, auth = free_port(), _Authenticator()
    controller = Controller(_Handler(), hostname="127.0.0.1", port=port, authenticator=auth,
                            auth_require_tls=False)
    controller.start()
    yield port, auth
    controller.stop()


@pytest.mark.parametrize("password, verdict", [("s-pw", "ok"), ("guess", "FAILED")])
def test_smtp_login(tmp_path: Path, home: Path, dovecot: Dovecot, auth_smtp: tuple[int, _Authenticator],
                    password: str, verdict: str) -> None:
    port, auth = auth_smtp
    config = write_config(tmp_path / "referee.toml", db_url=f"sqlite:///{tmp_path / 'db.sqlite3'}",
                          imap_port=dovecot.imap_port, smtp_port=port)
    secret_file = tmp_path / "smtp.password"
    secret_file.write_text(password + "\n")
    before = len(auth.logins)
    status, _, checks = check_json(["--config", str(config)], home=home, env={
        "REFEREE_SMTP_USER": "sender", "REFEREE_SMTP_PASSWORD_FILE": str(secret_file)})
    assert checks["SMTP login"]["verdict"] == verdict
    tried = auth.logins[before:]
    assert tried, "the server saw no login"
    if verdict == "ok":
        assert tried[-1].endswith(":ok")
        assert status == 0 and checks["SMTP sender"]["verdict"] == "ok"
    else:
        assert all(t.endswith(":refused") for t in tried)  # every mechanism the client tried
        assert status == 1
        assert "535" in checks["SMTP login"]["detail"] and "smtp_password" in checks["SMTP login"]["fix"]
        assert checks["SMTP sender"]["verdict"] == "skipped"


def test_secrets_are_never_printed(tmp_path: Path, home: Path, db_url: str, dovecot: Dovecot,
                                   auth_smtp: tuple[int, _Authenticator]) -> None:
    """Every secret, good or bad, from the file or the environment: only 'set' or 'not set' is shown."""
    secrets = {"imap": "imap-Secret-4711", "smtp": "smtp-Secret-0815", "gm": "gm-Secret-2342-long-enough",
               "key": "signing-Secret-1234", "db": "db-Secret-9999"}
    url = make_url(db_url)
    if url.get_backend_name() == "postgresql":  # the test server trusts loopback: the password is only carried
        db_url = url.set(password=secrets["db"]).render_as_string(hide_password=False)
    config = write_config(tmp_path / "referee.toml", db_url=db_url, imap_port=dovecot.imap_port,
                          smtp_port=auth_smtp[0], imap_password=secrets["imap"],
                          extra=f'signing_key = "{secrets["key"]}"')
    env = {"REFEREE_SMTP_USER": "sender", "REFEREE_SMTP_PASSWORD": secrets["smtp"], "REFEREE_GM_SECRET": secrets["gm"]}
    outputs = []
    for mode in ([], ["--json"]):
        proc = run_referee(["--config", str(config), "config", "check", *mode], home=home, env=env)
        outputs.append(proc.stdout + proc.stderr)
    for out in outputs:
        for name, secret in secrets.items():
            assert secret not in out, f"the {name} secret was printed"
    report = json.loads(run_referee(["--config", str(config), "config", "check", "--json"], home=home,
                                    env=env).stdout)
    assert report["settings"]["imap_password"] == "set" and report["settings"]["smtp_password"] == "set"
    assert report["settings"]["gm_secret"] == "set" and report["settings"]["signing_key"] == "set"
