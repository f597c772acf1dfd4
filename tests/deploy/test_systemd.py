"""The systemd units in deploy/systemd: systemd's own checker accepts them, and they say what we mean.

``systemd-analyze verify`` needs the ExecStart program to exist, so the service is checked as
installed: with ExecStart pointing at the ``referee`` command of the environment running the tests.
It needs no running systemd (PID 1 here is not systemd). Debian 12 images carry systemd.
"""

from __future__ import annotations

import configparser
import re
import shutil
import subprocess
from datetime import datetime
from itertools import pairwise
from pathlib import Path

import pytest

from tests.servers.processes import patience

from .helpers import DEPLOY, DEPLOY_BIN, REFEREE_BIN

UNITS = DEPLOY / "systemd"
ANALYZE = shutil.which("systemd-analyze")
needs_systemd = pytest.mark.skipif(ANALYZE is None, reason="systemd-analyze not installed (Debian: systemd)")


def unit(name: str) -> configparser.ConfigParser:
    """A unit file read as sections of keys; a key given more than once keeps its last value."""
    parser = configparser.ConfigParser(strict=False, interpolation=None, delimiters=("=",))
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read(UNITS / name)
    return parser


@pytest.fixture
def installed(tmp_path: Path) -> Path:
    """The units as an operator installs them, with ExecStart at a command that exists."""
    assert REFEREE_BIN.is_file()
    for path in UNITS.iterdir():
        (tmp_path / path.name).write_text(path.read_text().replace(DEPLOY_BIN, str(REFEREE_BIN)))
    return tmp_path


@needs_systemd
def test_systemd_accepts_the_units(installed: Path) -> None:
    names = sorted(p.name for p in installed.iterdir())
    assert names == ["referee-alert@.service", "referee-tick.service", "referee-tick.timer"]
    alert = "referee-alert@referee-tick.service.service"   # the instance OnFailure= starts
    proc = subprocess.run([str(ANALYZE), "verify", *names[1:], alert], cwd=installed, capture_output=True,
                          text=True, timeout=patience(60))
    # it also warns (unknown keys, bad values) without failing: any output at all is a finding
    assert proc.returncode == 0 and proc.stdout == "" and proc.stderr == "", proc.stdout + proc.stderr


@needs_systemd
def test_verify_notices_a_missing_program(installed: Path) -> None:
    """The check above can fail: the unit as shipped points at /opt/referee, which is not here."""
    shutil.copy(UNITS / "referee-tick.service", installed / "referee-tick.service")
    proc = subprocess.run([str(ANALYZE), "verify", "referee-tick.service"], cwd=installed, capture_output=True,
                          text=True, timeout=patience(60))
    if Path(DEPLOY_BIN).exists():
        pytest.skip(f"{DEPLOY_BIN} exists on this machine")
    assert proc.returncode != 0 and DEPLOY_BIN in proc.stderr


def test_the_service_is_one_tick_as_its_own_user_with_a_state_directory() -> None:
    service = unit("referee-tick.service")["Service"]
    assert service["Type"] == "oneshot"
    assert service["User"] == "referee" and service["Group"] == "referee"
    assert service["ExecStart"] == f"{DEPLOY_BIN} tick"
    assert service["Environment"] == "REFEREE_CONFIG=/etc/referee/referee.toml"
    # hardened: the whole file system read-only, except /var/lib/referee, which systemd creates for the user
    assert service["ProtectSystem"] == "strict" and service["StateDirectory"] == "referee"
    assert service["NoNewPrivileges"] == "yes" and service["ProtectHome"] == "yes"
    assert service["CapabilityBoundingSet"] == ""


def test_the_sample_settings_write_only_in_the_state_directory() -> None:
    """Under ProtectSystem=strict only /var/lib/<StateDirectory> is writable: every path the sample config
    writes to must be there."""
    from referee.common.config_load import load_settings

    state = Path("/var/lib") / unit("referee-tick.service")["Service"]["StateDirectory"]
    settings = load_settings(DEPLOY / "referee.toml", env={})
    written = [settings.database_url.removeprefix("sqlite:///"), settings.maildir_in, settings.maildir_out,
               settings.lock_file, settings.archive_dir]
    for path in written:
        assert Path(path).is_relative_to(state), path


@needs_systemd
def test_the_timer_fires_every_five_minutes() -> None:
    timer = unit("referee-tick.timer")
    assert timer["Install"]["WantedBy"] == "timers.target"
    spec = timer["Timer"]["OnCalendar"]
    proc = subprocess.run([str(ANALYZE), "calendar", "--iterations=4", spec], capture_output=True, text=True,
                          timeout=patience(60), env={"TZ": "UTC", "PATH": "/usr/bin:/bin"})
    assert proc.returncode == 0, proc.stderr
    times = [datetime.strptime(m, "%Y-%m-%d %H:%M:%S")
             for m in re.findall(r"\w{3} (\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2})", proc.stdout)]
    assert len(times) == 4, proc.stdout
    gaps = {(b - a).total_seconds() for a, b in pairwise(times)}
    assert gaps == {300.0}
    assert all(t.minute % 5 == 0 and t.second == 0 for t in times)


def test_a_failing_tick_mails_the_operator_at_most_once_in_six_hours() -> None:
    tick = unit("referee-tick.service")
    assert tick["Unit"]["OnFailure"] == "referee-alert@%n.service"
    alert = unit("referee-alert@.service")
    assert (alert["Unit"]["StartLimitIntervalSec"], alert["Unit"]["StartLimitBurst"]) == ("6h", "1")
    assert "referee status" in alert["Service"]["ExecStart"] and "sendmail -t" in alert["Service"]["ExecStart"]
