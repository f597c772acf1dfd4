"""Settings: a TOML file, REFEREE_* variables over it, and where the default SQLite file goes."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.common.config import ConfigError
from referee.common.config_load import load_settings


def test_without_a_config_file_the_database_is_a_sqlite_file_in_the_current_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    settings = load_settings(env={})
    assert settings.config_path is None
    assert settings.database_url == f"sqlite:///{tmp_path / 'referee.sqlite3'}"


def test_the_default_database_sits_beside_the_config_file(tmp_path):
    path = tmp_path / "referee.toml"
    path.write_text("")
    settings = load_settings(env={"REFEREE_CONFIG": str(path)})
    assert settings.config_path == path
    assert settings.database_url == f"sqlite:///{tmp_path / 'referee.sqlite3'}"


def test_a_relative_sqlite_file_in_the_config_is_relative_to_the_config_file(tmp_path):
    path = tmp_path / "referee.toml"
    path.write_text('database_url = "sqlite:///data/games.sqlite3"\n')
    assert load_settings(path, env={}).database_url == f"sqlite:///{tmp_path / 'data' / 'games.sqlite3'}"


def test_an_environment_variable_overrides_the_file(tmp_path):
    path = tmp_path / "referee.toml"
    path.write_text('database_url = "postgresql+psycopg://referee@db.example/referee"\n')
    env = {"REFEREE_DATABASE_URL": "postgresql+psycopg://referee@other.example/games"}
    assert load_settings(path, env=env).database_url == env["REFEREE_DATABASE_URL"]
    assert load_settings(path, env={}).database_url == "postgresql+psycopg://referee@db.example/referee"


def test_a_table_is_a_prefix_and_an_unknown_key_is_an_error(tmp_path):
    path = tmp_path / "referee.toml"
    path.write_text('[database]\nurl = "sqlite:////var/lib/referee/r.sqlite3"\n')
    assert load_settings(path, env={}).database_url == "sqlite:////var/lib/referee/r.sqlite3"
    path.write_text('databse_url = "sqlite:///x"\n')
    with pytest.raises(ConfigError, match="unknown setting 'databse_url'"):
        load_settings(path, env={})


def test_a_missing_or_broken_config_file_is_named(tmp_path):
    with pytest.raises(ConfigError, match="does not exist"):
        load_settings(tmp_path / "nope.toml", env={})
    bad = tmp_path / "bad.toml"
    bad.write_text("database_url = \n")
    with pytest.raises(ConfigError, match=f"{bad}: not valid TOML"):
        load_settings(Path(bad), env={})
