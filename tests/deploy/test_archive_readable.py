"""The public archive under the shipped systemd unit: built with the unit's ``UMask`` in the unit's state
directory (its ``StateDirectoryMode``), every page and picture can be read by another user (the web
server's), while the database beside it stays the service user's own.

The tests run as root (the service user here); the reader is ``nobody``, in a process of its own.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from referee.store import Store
from tests.reports.helpers import new_game, play_turns
from tests.servers.processes import patience

from .helpers import ROOT, cron_env
from .test_systemd import unit

NOBODY = 65534
needs_root = pytest.mark.skipif(os.geteuid() != 0, reason="reading as another user needs root to switch users")


def unit_mode(key: str) -> int:
    return int(unit("referee-tick.service")["Service"][key], 8)


@pytest.fixture
def state_dir() -> Iterator[Path]:
    """``/var/lib/referee`` as systemd makes it: in a folder anyone may pass through, with the unit's mode."""
    root = Path(tempfile.mkdtemp(prefix="referee-state-", dir="/tmp"))
    root.chmod(0o755)
    state = root / "referee"
    state.mkdir()
    state.chmod(unit_mode("StateDirectoryMode"))
    yield state
    shutil.rmtree(root)


def as_nobody(*args: str) -> subprocess.CompletedProcess[bytes]:
    def become_nobody() -> None:
        os.setgroups([])
        os.setgid(NOBODY)
        os.setuid(NOBODY)

    return subprocess.run(list(args), capture_output=True, timeout=patience(60), preexec_fn=become_nobody)


@needs_root
def test_the_archive_built_under_the_units_umask_is_readable_by_the_web_server(state_dir: Path) -> None:
    umask = unit_mode("UMask")
    assert umask == 0o027   # what the unit ships: group may read, others nothing
    old = os.umask(umask)
    try:
        db = state_dir / "referee.sqlite3"
        with Store(f"sqlite:///{db}") as store:
            store.check_schema()
            code = new_game(store)
            play_turns(store, code, 2)
        config = state_dir / "referee.toml"
        config.write_text(f'database_url = "sqlite:///{db}"\n[archive]\ndir = "{state_dir / "archive"}"\n')
        proc = subprocess.run([sys.executable, "-m", "referee.cli", "--config", str(config), "archive", "build"],
                              env=cron_env(state_dir, {"PYTHONPATH": str(ROOT)}), cwd=state_dir,
                              capture_output=True, text=True, timeout=patience(300), preexec_fn=lambda: os.umask(umask))
        assert proc.returncode == 0, proc.stdout + proc.stderr
    finally:
        os.umask(old)

    archive = state_dir / "archive"
    files = [p for p in archive.rglob("*") if p.is_file()]
    pictures = [p for p in files if p.suffix in (".png", ".gif")]
    assert (archive / "index.html") in files and (archive / code.lower() / "turn-2.html") in files and pictures
    read = as_nobody("cat", *map(str, files))
    assert read.returncode == 0, read.stderr
    assert len(read.stdout) == sum(p.stat().st_size for p in files)
    listed = as_nobody("ls", "-R", str(archive))
    assert listed.returncode == 0 and b"turn-1.html" in listed.stdout, listed.stderr
    assert {stat.S_IMODE(p.stat().st_mode) for p in files} == {0o644}

    # the secrets beside it stay the service user's: the database cannot be read, the folder not listed
    assert as_nobody("cat", str(db)).returncode != 0
    assert as_nobody("cat", str(config)).returncode != 0
    assert as_nobody("ls", str(state_dir)).returncode != 0
