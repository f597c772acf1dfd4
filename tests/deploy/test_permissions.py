"""Secrets stay with the referee's user under cron's umask 022: the database and its -wal/-shm files,
the outgoing Maildir and the demo's config are created owner-only, and ``referee config check`` warns
about a database or password file that others can read."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import text

from referee.store import Store
from tests.servers.ports import free_port
from tests.servers.processes import patience

from .helpers import check_json, cron_env, write_config

ROOT = Path(__file__).resolve().parents[2]


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture
def cron_umask() -> Iterator[None]:
    old = os.umask(0o022)
    yield
    os.umask(old)


def under_cron_umask(args: list[str], home: Path) -> subprocess.CompletedProcess[str]:
    """``python -m referee.cli ARGS`` with cron's environment and umask 022."""
    return subprocess.run([sys.executable, "-m", "referee.cli", *args], cwd=home, env=cron_env(home),
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=patience(300),
                          preexec_fn=lambda: os.umask(0o022))


def test_the_database_and_its_wal_and_shm_files_are_owner_only(tmp_path: Path, cron_umask: None) -> None:
    db = tmp_path / "referee.sqlite3"
    store = Store(f"sqlite:///{db}")
    try:
        store.check_schema()
        with store.engine.connect() as conn:   # held open: the -wal and -shm files exist meanwhile
            conn.execute(text("SELECT count(*) FROM games"))
            wal, shm = db.with_name(db.name + "-wal"), db.with_name(db.name + "-shm")
            assert wal.exists() and shm.exists()
            assert {p.name: mode(p) for p in (db, wal, shm)} == dict.fromkeys((db.name, wal.name, shm.name), 0o600)
    finally:
        store.close()


def test_the_demo_leaves_its_secrets_to_its_owner(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    proc = under_cron_umask(["demo", "--dir", str(tmp_path / "demo"), "--turns", "1"], home)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    demo = tmp_path / "demo"
    assert mode(demo) == 0o700
    assert mode(demo / "referee.toml") == 0o600 and "gm_secret" in (demo / "referee.toml").read_text()
    databases = [p for p in demo.glob("*.sqlite3*") if not p.name.endswith(".lock")]
    assert databases and {mode(p) for p in databases} == {0o600}
    sent = list((demo / "mail" / "out" / "new").iterdir())
    assert sent and {mode(p) for p in sent} == {0o600}
    assert {mode(demo / "mail" / "out" / sub) for sub in ("new", "tmp", "cur")} == {0o700}


def test_config_check_warns_about_a_database_or_password_file_others_can_read(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    db = tmp_path / "referee.sqlite3"
    Store(f"sqlite:///{db}").check_schema()
    password = tmp_path / "smtp.password"
    password.write_text("s-pw\n")
    config = write_config(tmp_path / "referee.toml", db_url=f"sqlite:///{db}", imap_port=free_port(),
                          smtp_port=free_port(), transport="smtp",
                          extra=f'smtp_user = "sender"\nsmtp_password_file = "{password}"')

    password.chmod(0o640)   # the documented install: owner root, group referee
    _, _, checks = check_json(["--config", str(config)], home=home)
    assert checks["database"]["verdict"] == "ok" and checks["passwords"]["verdict"] == "ok", checks

    db.chmod(0o640)
    password.chmod(0o644)
    _, _, checks = check_json(["--config", str(config)], home=home)
    assert checks["database"]["verdict"] == "warning"
    assert f"{db} (players' keys, every mail) is readable by its group" in checks["database"]["detail"]
    assert f"chmod 600 {db}" in checks["database"]["fix"]
    assert checks["passwords"]["verdict"] == "warning"
    assert f"{password} (the SMTP password) is readable by every user" in checks["passwords"]["detail"]
