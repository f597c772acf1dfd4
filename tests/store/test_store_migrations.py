"""The migrations build exactly the models' schema, and go up and down, on SQLite and PostgreSQL."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import inspect

from referee.store import SchemaError, Store, head_revision
from referee.store.models import Base
from tests.servers.processes import patience

from .conftest import cli_env

TABLES = {t.name for t in Base.metadata.sorted_tables}


def tables(store: Store) -> set[str]:
    with store.engine.connect() as conn:
        return set(inspect(conn).get_table_names())


def schema_diff(store: Store) -> list:
    with store.engine.connect() as conn:
        ctx = MigrationContext.configure(conn, opts={"compare_type": True, "compare_server_default": True})
        return compare_metadata(ctx, Base.metadata)


def test_upgrade_from_empty_to_head_builds_exactly_the_models_then_downgrade_removes_it_all(empty_url):
    with Store(empty_url) as store:
        assert store.current_revision() is None
        assert store.upgrade() == (None, head_revision())
        assert tables(store) == TABLES | {"alembic_version"}
        assert schema_diff(store) == []
        assert store.downgrade("base") == (head_revision(), None)
        assert tables(store) - {"alembic_version"} == set()
        store.upgrade()
        assert schema_diff(store) == []


def test_an_empty_sqlite_file_is_set_up_on_first_use_but_postgresql_asks_for_an_upgrade(empty_url, dialect):
    with Store(empty_url) as store:
        if dialect == "sqlite":
            store.check_schema()
            assert store.current_revision() == head_revision()
        else:
            with pytest.raises(SchemaError, match="run 'referee db upgrade'"):
                store.check_schema()


def test_referee_db_upgrade_works_from_any_directory_with_the_database_beside_the_config(tmp_path):
    config_dir = tmp_path / "etc"
    config_dir.mkdir()
    (config_dir / "referee.toml").write_text("# only defaults\n")
    elsewhere = tmp_path / "somewhere" / "else"
    elsewhere.mkdir(parents=True)
    env = {k: v for k, v in os.environ.items() if k != "REFEREE_DATABASE_URL"}
    env |= {k: v for k, v in cli_env("").items() if k != "REFEREE_DATABASE_URL"}
    env["REFEREE_CONFIG"] = str(config_dir / "referee.toml")

    def referee(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "referee.cli", *args], cwd=elsewhere, env=env,
                              capture_output=True, text=True, timeout=patience(120))

    before = referee("db", "current")
    assert before.returncode == 1 and "empty (no schema)" in before.stdout
    up = referee("db", "upgrade")
    assert up.returncode == 0, up.stderr
    assert f"empty -> {head_revision()}" in up.stdout
    assert (config_dir / "referee.sqlite3").is_file()
    assert not (elsewhere / "referee.sqlite3").exists()
    assert referee("db", "current").returncode == 0
    refused = referee("db", "downgrade", "base")   # no terminal to ask on: refused, nothing dropped
    assert refused.returncode == 2 and "--yes" in refused.stderr
    assert referee("db", "current").returncode == 0
    down = referee("db", "downgrade", "base", "--yes")
    assert down.returncode == 0 and f"{head_revision()} -> empty" in down.stdout


def test_the_head_read_from_the_migration_files_is_alembics_own():
    """``referee ingest`` finds the schema's head without importing Alembic; both must agree."""
    from alembic.script import ScriptDirectory

    from referee.store.db import alembic_config, head_revision

    assert head_revision() == ScriptDirectory.from_config(alembic_config()).get_current_head()
