"""``referee config check`` for real mail accounts: ``--send-test`` mails the referee's own reply address and
watches for it, OAuth2 logins are tried, and a configuration that would run on defaults is pointed out.

Rulings cited (docs/rulings.md): 19.3.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.doctor import FAILED, OK, WARNING, run_checks
from tests.deploy.helpers import run_referee, write_config
from tests.intake.helpers import count

pytestmark = pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS")


def checks(config: Path, env: dict[str, str] | None = None, *, send: bool = False) -> dict[str, dict[str, str]]:
    report = run_checks(str(config), env={**(env or {})}, timeout=10, send=send)
    return {f.item: {"verdict": f.verdict, "detail": f.detail, "fix": f.fix} for f in report.findings}


def config(tmp_path: Path, imap_port: int, smtp_port: int, extra: str = "") -> Path:
    return write_config(tmp_path / "referee.toml", db_url=f"sqlite:///{tmp_path / 'db.sqlite3'}",
                        imap_port=imap_port, smtp_port=smtp_port, extra=extra)


async def _empty(dovecot) -> int:
    dovecot.empty("referee")
    return await count(dovecot)


def test_the_send_test_sees_the_plus_address_arrive_and_deletes_it(tmp_path, dovecot, smtp_server):
    dovecot.empty("referee")
    found = checks(config(tmp_path, dovecot.imap_port, smtp_server.port), send=True)
    test = found["send test"]
    assert test["verdict"] == OK, test
    assert "referee+selftest-" in test["detail"] and "arrived in INBOX" in test["detail"]
    assert "deleted again" in test["detail"]
    assert dovecot.doveadm("search", "-u", "referee@example.test", "mailbox", "INBOX", "all").strip() == ""


def test_a_server_that_does_not_know_the_delimiter_fails_the_send_test_with_the_fix(tmp_path, dash_dovecot, dash_smtp):
    """The mail server's delimiter is "-", the referee writes "+": the mail bounces, and the verdict says
    which settings fit."""
    found = checks(config(tmp_path, dash_dovecot.imap_port, dash_smtp.port), send=True)
    test = found["send test"]
    assert test["verdict"] == FAILED
    assert "referee+selftest-" in test["detail"]
    assert "address_delimiter" in test["fix"] and 'reply_token = "subject"' in test["fix"]


def test_with_the_servers_delimiter_set_the_send_test_passes(tmp_path, dash_dovecot, dash_smtp):
    dash_dovecot.empty("referee")
    found = checks(config(tmp_path, dash_dovecot.imap_port, dash_smtp.port, 'address_delimiter = "-"'), send=True)
    assert found["send test"]["verdict"] == OK and "referee-selftest-" in found["send test"]["detail"]
    assert "replies to referee-12.4." in found["reply addresses"]["detail"]


def test_with_the_token_in_the_subject_the_plain_address_is_tried(tmp_path, dash_dovecot, dash_smtp):
    dash_dovecot.empty("referee")
    found = checks(config(tmp_path, dash_dovecot.imap_port, dash_smtp.port, 'reply_token = "subject"'), send=True)
    assert found["send test"]["verdict"] == OK
    assert "a mail to referee@example.test with the token in the subject" in found["send test"]["detail"]


def test_oauth2_logins_are_tried_and_no_secret_or_file_is_left(tmp_path, oauth_dovecot, oauth_smtp, provider):
    port, _ = oauth_smtp
    extra = (f'mail_auth = "oauth2"\noauth2_token_url = "{provider.url}/token"\n'
             f'oauth2_client_id = "{provider.client_id}"\n')
    env = {"REFEREE_OAUTH2_CLIENT_SECRET": provider.client_secret, "REFEREE_OAUTH2_REFRESH_TOKEN": "rt-referee"}
    report = run_checks(str(config(tmp_path, oauth_dovecot.imap_port, port, extra)), env=env, timeout=10)
    found = {f.item: f for f in report.findings}
    assert found["IMAP login"].verdict == OK and "OAuth2" in found["IMAP login"].detail
    assert found["SMTP login"].verdict == OK and "OAuth2" in found["SMTP login"].detail
    assert found["OAuth2"].verdict == OK
    assert report.settings is not None and report.settings["oauth2_refresh_token"] == "set"
    assert "rt-referee" not in report.text() and provider.client_secret not in report.text()
    assert not (tmp_path / "oauth2-token.json").exists()


def test_a_refused_password_says_what_to_check(tmp_path, dovecot, smtp_server):
    cfg = write_config(tmp_path / "referee.toml", db_url=f"sqlite:///{tmp_path / 'db.sqlite3'}",
                       imap_port=dovecot.imap_port, smtp_port=smtp_server.port, imap_password="wrong")
    login = checks(cfg)["IMAP login"]
    assert login["verdict"] == FAILED
    assert "app password" in login["fix"] and "2-step verification" in login["fix"] and "oauth2" in login["fix"]


def test_a_missing_gm_address_and_secret_are_warnings(tmp_path, dovecot, smtp_server):
    cfg = config(tmp_path, dovecot.imap_port, smtp_server.port)
    cfg.write_text(cfg.read_text().replace('gm_address = "gm@example.test"\n', "")
                   .replace('gm_secret = "a-long-gm-secret-for-tests"\n', ""))
    gm = checks(cfg)["GM"]
    assert gm["verdict"] == WARNING
    assert "gm_address is not set" in gm["detail"] and "gm_secret is not set" in gm["detail"]


# -- strict: no configuration, no files ------------------------------------------------------------------------
@pytest.mark.parametrize("command", [["tick"], ["game", "list"], ["gm", "-", "HELP"], ["poll"]])
def test_without_a_configuration_commands_refuse_and_create_nothing(tmp_path, command):
    home = tmp_path / "home"
    home.mkdir()
    proc = run_referee(command, home=home)
    assert proc.returncode != 0
    assert "no configuration found" in proc.stderr and "--config" in proc.stderr
    assert list(home.iterdir()) == []


def test_without_a_configuration_config_check_fails_as_tick_would(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    proc = run_referee(["config", "check"], home=home)
    assert proc.returncode != 0
    assert "FAILED   config file" in proc.stdout and "none given" in proc.stdout
    assert list(home.iterdir()) == []


def test_ingest_without_a_configuration_defers_the_mail_and_creates_nothing(tmp_path):
    """The mail server keeps the mail (exit 75) until the pipe is given its settings."""
    home = tmp_path / "home"
    home.mkdir()
    proc = run_referee(["ingest"], home=home)
    assert proc.returncode == 75 and "no configuration found" in proc.stderr
    assert list(home.iterdir()) == []
