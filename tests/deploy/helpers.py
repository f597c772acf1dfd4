"""Helpers for the deploy tests: the files in deploy/, and the CLI run as cron would run it.

Cron starts a command with almost no environment (HOME, LOGNAME, PATH=/usr/bin:/bin, SHELL), no
terminal and no standard input; :func:`cron_env` and :func:`run_referee` do the same.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from tests.servers.processes import patience

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
#: the installed ``referee`` command of the environment running the tests
REFEREE_BIN = Path(sys.executable).parent / "referee"
#: where deploy/ expects the installed command and the state directory
DEPLOY_BIN = "/opt/referee/venv/bin/referee"
DEPLOY_STATE = "/var/lib/referee"


def cron_env(home: Path, extra: Mapping[str, str] | None = None) -> dict[str, str]:
    env = {"HOME": str(home), "LOGNAME": "referee", "PATH": "/usr/bin:/bin", "SHELL": "/bin/sh"}
    env.update(extra or {})
    return env


def run_referee(args: list[str], *, home: Path, env: Mapping[str, str] | None = None,
                timeout: float | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m referee.cli ARGS`` as a separate process with cron's environment, from ``home`` (given up
    only when it hangs: :func:`~tests.servers.processes.patience`)."""
    return subprocess.run([sys.executable, "-m", "referee.cli", *args], cwd=home, env=cron_env(home, env),
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=timeout or patience(120),
                          start_new_session=True)


def check_json(args: list[str], *, home: Path, env: Mapping[str, str] | None = None
               ) -> tuple[int, dict[str, Any], dict[str, dict[str, str]]]:
    """``referee ... config check --json``: exit status, the whole report, and the checks by item."""
    proc = run_referee([*args, "config", "check", "--json"], home=home, env=env)
    assert proc.stderr == "" or "Traceback" not in proc.stderr, proc.stderr
    report = json.loads(proc.stdout)
    return proc.returncode, report, {c["item"]: c for c in report["checks"]}


def write_config(path: Path, *, db_url: str, imap_port: int, smtp_port: int, transport: str = "imap",
                 imap_password: str | None = "referee-pw", extra: str = "") -> Path:
    """A settings file (mode 0600) for servers on loopback without TLS; ``imap_password=None`` leaves
    the IMAP password out (an MTA-pipe install), ``extra`` adds top-level lines."""
    password = "" if imap_password is None else f'password = "{imap_password}"\n'
    path.write_text(f"""\
database_url = "{db_url}"
referee_address = "referee@example.test"
gm_address = "gm@example.test"
gm_secret = "a-long-gm-secret-for-tests"
transport = "{transport}"
mail_timeout = 10
{extra}
[imap]
host = "127.0.0.1"
port = {imap_port}
tls = "none"
{password}
[smtp]
host = "127.0.0.1"
port = {smtp_port}
tls = "none"
""")
    path.chmod(0o600)
    return path
