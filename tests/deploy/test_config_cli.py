"""``referee config init``, ``config show`` and ``config check`` without any configuration, run as cron would."""

from __future__ import annotations

import json
from pathlib import Path

from .helpers import ROOT, run_referee


def test_config_init_writes_the_commented_sample_owner_only_with_a_fresh_secret_and_never_overwrites(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    first = run_referee(["config", "init", "etc/referee.toml"], home=home, env={"PYTHONPATH": str(ROOT)})
    assert first.returncode == 0, first.stderr
    written = home / "etc" / "referee.toml"
    assert written.stat().st_mode & 0o777 == 0o600
    sample = (ROOT / "deploy" / "referee.toml").read_text()
    text = written.read_text()
    assert text.replace(next(x for x in text.splitlines() if x.startswith("gm_secret = ")), '# gm_secret = "..."') \
        == sample
    again = run_referee(["config", "init", "etc/referee.toml"], home=home, env={"PYTHONPATH": str(ROOT)})
    assert again.returncode == 1 and "exists already (--force to overwrite it)" in again.stderr
    assert written.read_text() == text
    printed = run_referee(["config", "init", "-"], home=home, env={"PYTHONPATH": str(ROOT)})
    assert printed.stdout.startswith("# referee settings: a sample")


def test_config_show_gives_the_settings_in_effect_with_secrets_masked(tmp_path: Path):
    config = tmp_path / "referee.toml"
    config.write_text('database_url = "postgresql+psycopg://referee:db-pw-123@localhost/referee"\n'
                      'gm_secret = "the-gm-secret-xyz"\n[imap]\npassword = "imap-pw-456"\nhost = "imap.example.org"\n')
    shown = run_referee(["--config", str(config), "config", "show", "--json"], home=tmp_path,
                        env={"PYTHONPATH": str(ROOT), "REFEREE_SMTP_HOST": "smtp.example.org"})
    assert shown.returncode == 0, shown.stderr
    values = json.loads(shown.stdout)
    assert values["imap_host"] == "imap.example.org" and values["smtp_host"] == "smtp.example.org"
    assert values["gm_secret"] == values["imap_password"] == "********"
    assert values["database_url"] == "postgresql+psycopg://referee:********@localhost/referee"
    for secret in ("db-pw-123", "the-gm-secret-xyz", "imap-pw-456"):
        assert secret not in shown.stdout


def test_config_check_without_any_configuration_fails_as_tick_does(tmp_path: Path):
    env = {"PYTHONPATH": str(ROOT)}
    check = run_referee(["config", "check"], home=tmp_path, env=env)
    tick = run_referee(["tick"], home=tmp_path, env=env)
    assert check.returncode == tick.returncode == 1
    assert "FAILED   config file" in check.stdout and "referee config init" in check.stdout
    assert list(tmp_path.iterdir()) == []   # nothing made where it stood


def test_the_environments_password_wins_over_the_password_file_as_the_sample_says(tmp_path: Path):
    from referee.common.config_load import load_settings

    (tmp_path / "imap.password").write_text("from-the-file\n")
    config = tmp_path / "referee.toml"
    config.write_text('[imap]\npassword_file = "imap.password"\n[smtp]\npassword = "smtp-in-file"\n')
    assert load_settings(config, env={}).secret("imap_password") == "from-the-file"
    env = {"REFEREE_IMAP_PASSWORD": "from-the-env", "REFEREE_SMTP_PASSWORD": "smtp-from-env"}
    settings = load_settings(config, env=env)
    assert settings.secret("imap_password") == "from-the-env"
    assert settings.secret("smtp_password") == "smtp-from-env"
    both = load_settings(config, env={**env, "REFEREE_IMAP_PASSWORD_FILE": str(tmp_path / "imap.password")})
    assert both.secret("imap_password") == "from-the-file"   # a file named in the environment too: the file
