"""The container's main process, deploy/container/tick-loop.sh, run here as a plain process.

The image itself cannot be built here (no container engine); its loop can be run: it brings the
schema up, ticks every REFEREE_TICK_INTERVAL seconds, and stops at once, cleanly, on SIGTERM.
"""

from __future__ import annotations

import os
import selectors
import signal
import subprocess
import time
from pathlib import Path

from tests.servers.processes import patience, wait_for_child

from .helpers import DEPLOY, REFEREE_BIN

LOOP = DEPLOY / "container" / "tick-loop.sh"


def loop_env(tmp_path: Path, interval: str) -> dict[str, str]:
    state = tmp_path / "state"
    state.mkdir(exist_ok=True)
    # as the image sets it: settings from the environment only, everything under the state volume
    return {"PATH": f"{REFEREE_BIN.parent}:/usr/bin:/bin", "HOME": str(state),
            "REFEREE_DATABASE_URL": f"sqlite:///{state / 'referee.sqlite3'}",
            "REFEREE_MAILDIR_IN": str(state / "mail/in"), "REFEREE_MAILDIR_OUT": str(state / "mail/out"),
            "REFEREE_LOCK_FILE": str(state / "tick.lock"), "REFEREE_TICK_INTERVAL": interval}


def read_lines(proc: subprocess.Popen[str], want: int, prefix: str, timeout: float) -> list[str]:
    """Lines of the process's output until ``want`` of them start with ``prefix``."""
    assert proc.stdout is not None
    sel = selectors.DefaultSelector()
    sel.register(proc.stdout, selectors.EVENT_READ)
    lines: list[str] = []
    deadline = time.monotonic() + timeout
    while sum(line.startswith(prefix) for line in lines) < want:
        left = deadline - time.monotonic()
        assert left > 0, f"only {lines!r} after {timeout} s"
        if sel.select(left):
            line = proc.stdout.readline()
            assert line, f"the loop ended: {lines!r}"
            lines.append(line.rstrip("\n"))
    return lines


def test_the_loop_ticks_again_and_again_and_stops_on_sigterm(tmp_path: Path) -> None:
    proc = subprocess.Popen(["/bin/sh", str(LOOP)], env=loop_env(tmp_path, "1"), cwd=tmp_path,
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            start_new_session=True)
    try:
        lines = read_lines(proc, 2, "tick:", timeout=patience(120))
        assert "empty -> " in lines[0]  # the schema came first (referee db upgrade on a new database)
        assert next(line for line in lines if line.startswith("tick:")).startswith("tick: fetched 0")
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=patience(10)) == 0
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def test_sigterm_does_not_wait_for_the_sleep_to_end(tmp_path: Path) -> None:
    proc = subprocess.Popen(["/bin/sh", str(LOOP)], env=loop_env(tmp_path, "3600"), cwd=tmp_path,
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            start_new_session=True)
    try:
        read_lines(proc, 1, "tick:", timeout=patience(120))
        wait_for_child(proc.pid, "sleep")  # into the hour's sleep
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=patience(10)) == 0  # far below the hour
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def test_the_loop_refuses_an_interval_that_is_not_a_number(tmp_path: Path) -> None:
    proc = subprocess.run(["/bin/sh", str(LOOP)], env=loop_env(tmp_path, "5m"), cwd=tmp_path,
                          stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          timeout=patience(60))
    assert proc.returncode == 2
    assert "REFEREE_TICK_INTERVAL" in proc.stderr and "'5m'" in proc.stderr


def test_the_image_runs_the_loop_and_ships_the_fonts() -> None:
    """What can be read of the recipe without building it."""
    dockerfile = (DEPLOY / "container" / "Dockerfile").read_text()
    assert dockerfile.startswith("#") and "\nFROM python:3.11-slim\n" in dockerfile
    assert "fonts-dejavu-core" in dockerfile
    assert "COPY --chmod=0755 deploy/container/tick-loop.sh /usr/local/bin/referee-tick-loop" in dockerfile
    assert 'ENTRYPOINT ["referee-tick-loop"]' in dockerfile
    assert "\nUSER referee\n" in dockerfile
    # every file the recipe copies is in the build context the ignore file lets through
    ignore = (DEPLOY / "container" / "Dockerfile.dockerignore").read_text().split()
    copied = [word for line in dockerfile.splitlines() if line.startswith("COPY ")
              for word in line.split()[1:-1] if not word.startswith("--")]
    assert "referee" in copied and "migrations" in copied
    for name in copied:
        assert f"!{name}" in ignore, name
        assert (DEPLOY.parent / name).exists(), name


def test_a_database_that_cannot_work_stops_the_loop_with_the_reason(tmp_path: Path) -> None:
    bad_url = {**loop_env(tmp_path, "1"), "REFEREE_DATABASE_URL": "nosuchdriver://x/y"}
    proc = subprocess.run(["/bin/sh", str(LOOP)], env=bad_url, cwd=tmp_path, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=patience(60))
    assert proc.returncode == 1
    assert "the database cannot be used" in proc.stderr and "not ready" not in proc.stderr
