"""Every setting's value is checked when the settings load (issue 43): a value the setting does not allow is one
line naming the setting, where it came from, the value and what is allowed; every command exits 2 on it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from referee.common.config import ConfigError, Settings
from referee.common.config_load import load_settings
from referee.common.config_values import VALUE_RULES, value_problems
from tests.servers.processes import patience

#: a value each checked setting refuses, as an operator might write it
BAD = {
    "referee_address": "the referee", "gm_address": "Carol <carol@example.org>", "mail_domain": "a@b",
    "transport": "pigeon", "imap_port": "0", "smtp_port": "70000", "imap_tls": "yes", "smtp_tls": "tls",
    "mail_auth": "kerberos", "address_delimiter": "++", "reply_token": "header", "mail_timeout": "0.5",
    "max_mail_bytes": "100", "error_replies_per_hour": "-1", "answers_per_hour": "0", "outbox_batch": "0",
    "outbox_pass_seconds": "0", "tick_interval": "0", "retention_days": "-3", "log_level": "verbose",
    "default_deadline": "5x", "default_reminder": "soon", "default_settle": "a while",
    "default_missing_orders": "guess",
}


def test_every_checked_setting_has_a_bad_example_here():
    assert set(BAD) == set(VALUE_RULES)


def test_the_defaults_are_all_allowed():
    assert value_problems(Settings()) == []


@pytest.mark.parametrize("name", sorted(BAD))
def test_a_bad_value_from_the_environment_is_refused_in_one_line(name: str):
    var = f"REFEREE_{name.upper()}"
    with pytest.raises(ConfigError) as refused:
        load_settings(None, env={var: BAD[name]})
    line = str(refused.value)
    assert "\n" not in line
    assert line.startswith(f"setting {name} = ") and f"(from the environment variable {var})" in line
    assert "must be" in line


def test_a_bad_value_in_the_file_names_the_file_and_the_others_are_counted(tmp_path: Path):
    config = tmp_path / "referee.toml"
    config.write_text('log_level = "verbose"\n[imap]\ntls = "yes"\n')
    with pytest.raises(ConfigError) as refused:
        load_settings(config, env={})
    assert str(refused.value) == (f"setting imap_tls = 'yes' (from the config file {config}) is not allowed: it must "
                                  "be one of ssl, starttls, none (and 1 more: referee config check lists them)")


def test_a_list_of_board_folders_from_the_file_or_the_environment(tmp_path: Path):
    config = tmp_path / "referee.toml"
    config.write_text('boards = ["courses", "/srv/boards"]\n')
    assert load_settings(config, env={}).board_dirs == [tmp_path / "courses", Path("/srv/boards")]
    assert load_settings(config, env={"REFEREE_BOARDS": "/a:/b"}).boards == ("/a", "/b")   # the variable wins


def test_the_environment_beats_every_secret_file(tmp_path: Path):
    config = tmp_path / "referee.toml"
    (tmp_path / "client.secret").write_text("from-the-file\n")
    config.write_text('oauth2_client_secret_file = "client.secret"\n')
    assert load_settings(config, env={}).secret("oauth2_client_secret") == "from-the-file"
    env = {"REFEREE_OAUTH2_CLIENT_SECRET": "from-the-env"}
    assert load_settings(config, env=env).secret("oauth2_client_secret") == "from-the-env"


@pytest.mark.parametrize("args", [["tick"], ["tick", "--json"], ["status"], ["game", "list"], ["outbox", "list"],
                                  ["config", "show"], ["db", "current"], ["resolve-due"]])
def test_every_command_exits_2_with_one_line_and_no_traceback(tmp_path: Path, args: list[str]):
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "REFEREE_DATABASE_URL": f"sqlite:///{tmp_path}/r.db",
           "REFEREE_TRANSPORT": "pigeon"}
    done = subprocess.run([sys.executable, "-m", "referee.cli", *args], env=env, cwd=tmp_path, capture_output=True,
                          text=True, timeout=patience(120), stdin=subprocess.DEVNULL)
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert "Traceback" not in done.stderr
    said = (done.stdout + done.stderr).strip()
    assert "transport = 'pigeon'" in said and "one of maildir, imap, smtp" in said
    if "--json" in args:
        assert done.stdout.startswith("{") and '"ok": false' in done.stdout
    else:
        assert len(said.splitlines()) == 1


@pytest.mark.parametrize("args, env", [
    (["tick", "--json"], {}),
    (["db", "current", "--json"], {"REFEREE_DATABASE_URL": "postgresql+psycopg://referee:pw@127.0.0.1:1/referee"
                                                           "?connect_timeout=5"}),
    (["status", "--json"], {"REFEREE_DATABASE_URL": "postgresql+psycopg://referee:pw@127.0.0.1:1/referee"
                                                    "?connect_timeout=5"}),
])
def test_json_errors_are_json(tmp_path: Path, args: list[str], env: dict[str, str]):
    """No configuration, or a database that does not answer: still one JSON object, and exit status 1."""
    import json

    done = subprocess.run([sys.executable, "-m", "referee.cli", *args], cwd=tmp_path, capture_output=True, text=True,
                          env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), **env}, timeout=patience(120),
                          stdin=subprocess.DEVNULL)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    said = json.loads(done.stdout)
    assert said["ok"] is False and said["error"]
