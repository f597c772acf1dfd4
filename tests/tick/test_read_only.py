"""``referee tick`` on a read-only file system: one line saying what could not be written, exit status 1,
never a traceback. The file system is a real read-only tmpfs (needs root, as the deploy tests do)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.servers.processes import patience

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def mount(tmp_path: Path) -> Iterator[Path]:
    where = tmp_path / "state"
    where.mkdir()
    if os.geteuid() != 0 or subprocess.run(["mount", "-t", "tmpfs", "tmpfs", str(where)],
                                           capture_output=True).returncode != 0:
        pytest.skip("mounting a tmpfs needs root")
    yield where
    subprocess.run(["umount", "-l", str(where)], check=False)


def tick(config: Path) -> subprocess.CompletedProcess[str]:
    env = {"PATH": "/usr/bin:/bin", "HOME": str(config.parent), "PYTHONPATH": str(ROOT), "REFEREE_CONFIG": str(config)}
    return subprocess.run([sys.executable, "-m", "referee.cli", "tick"], env=env, cwd=config.parent,
                          capture_output=True, text=True, timeout=patience(120))


def test_a_tick_on_a_read_only_file_system_says_so_in_one_line(mount: Path, tmp_path: Path):
    config = tmp_path / "referee.toml"
    config.write_text(f'database_url = "sqlite:///{mount}/referee.sqlite3"\ntransport = "maildir"\n'
                      f'referee_address = "referee@example.test"\nmaildir_in = "{mount}/in"\n'
                      f'maildir_out = "{mount}/out"\n')
    assert tick(config).returncode == 0     # writable: the database is made, a tick runs
    subprocess.run(["mount", "-o", "remount,ro", str(mount)], check=True)

    locked = tick(config)   # the lock file beside the database cannot be made
    assert locked.returncode == 1 and "Traceback" not in locked.stderr + locked.stdout
    assert "cannot take the lock file" in locked.stdout and "Read-only file system" in locked.stdout
    assert locked.stdout.count("\n") == 1

    config.write_text(config.read_text() + f'lock_file = "{tmp_path / "tick.lock"}"\n')
    stuck = tick(config)    # the lock elsewhere: now the database cannot be written
    assert stuck.returncode == 1 and "Traceback" not in stuck.stderr + stuck.stdout
    assert stuck.stdout.startswith("tick: ") and "error(s), the first:" in stuck.stdout
    assert stuck.stdout.count("\n") == 1
