"""deploy/crontab: a well-formed crontab whose job, run the way cron runs it, ticks and stays quiet.

Cron runs each job with ``/bin/sh -c``, the crontab's variable lines and HOME, LOGNAME, PATH and SHELL
as its whole environment, no terminal and no input, and mails whatever the job prints. The job is run
here the same way, with the installed command and state directory put where this test can have them.
"""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.servers.processes import patience

from .helpers import DEPLOY, DEPLOY_BIN, DEPLOY_STATE, REFEREE_BIN, cron_env

CRONTAB = DEPLOY / "crontab"
RANGES = [(0, 59), (0, 23), (1, 31), (1, 12), (0, 7)]
NAMES = {3: ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"],
         4: ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]}


@dataclass
class Job:
    times: list[str]
    command: str


def expand(field: str, index: int) -> set[int]:
    """The values a crontab time field stands for (``*``, ``a-b``, ``*/n``, ``a-b/n``, lists, names)."""
    low, high = RANGES[index]
    out: set[int] = set()
    for part in field.lower().split(","):
        for i, name in enumerate(NAMES.get(index, [])):
            part = part.replace(name, str(i + (1 if index == 3 else 0)))
        m = re.fullmatch(r"(\*|\d+(?:-\d+)?)(?:/(\d+))?", part)
        assert m, f"bad crontab field {field!r}"
        span, step = m.group(1), int(m.group(2) or 1)
        a, b = (low, high) if span == "*" else (int(span.split("-")[0]), int(span.split("-")[-1]))
        assert low <= a <= b <= high and step >= 1, f"field {field!r} out of range {low}-{high}"
        out.update(range(a, b + 1, step))
    return out


def parse_crontab(text: str) -> tuple[dict[str, str], list[Job]]:
    env: dict[str, str] = {}
    jobs: list[Job] = []
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if m := re.fullmatch(r"([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)", line):
            env[m.group(1)] = m.group(2)
            continue
        parts = line.split(None, 5)
        assert len(parts) == 6, f"a job line is 5 time fields and a command: {line!r}"
        for i, field in enumerate(parts[:5]):
            expand(field, i)
        assert "%" not in parts[5], "cron turns % into a new line: escape it"
        jobs.append(Job(parts[:5], parts[5]))
    return env, jobs


def test_the_crontab_runs_one_tick_every_five_minutes() -> None:
    env, jobs = parse_crontab(CRONTAB.read_text())
    assert len(jobs) == 1
    job = jobs[0]
    assert expand(job.times[0], 0) == set(range(0, 60, 5))
    assert all(expand(f, i + 1) == set(range(RANGES[i + 1][0], RANGES[i + 1][1] + 1)) for i, f in
               enumerate(job.times[1:]))
    assert job.command.startswith(f"{DEPLOY_BIN} tick")
    assert "flock" not in job.command  # the tick takes its own lock
    assert env["REFEREE_CONFIG"].startswith("/")  # cron's working directory is no help


@pytest.fixture
def installed(tmp_path: Path) -> tuple[dict[str, str], Job, Path]:
    """The crontab as an operator installs it, with the command and the state directory of this test."""
    state = tmp_path / "state"
    state.mkdir()
    config = tmp_path / "referee.toml"
    config.write_text(f"""\
database_url = "sqlite:///{state / 'referee.sqlite3'}"
referee_address = "referee@example.test"
transport = "maildir"
maildir_in = "{state / 'mail/in'}"
maildir_out = "{state / 'mail/out'}"
log_level = "warning"
""")
    text = CRONTAB.read_text().replace(DEPLOY_BIN, str(REFEREE_BIN)).replace(DEPLOY_STATE, str(state))
    env, jobs = parse_crontab(text)
    env["REFEREE_CONFIG"] = str(config)
    return env, jobs[0], state


def run_job(env: dict[str, str], job: Job, home: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["/bin/sh", "-c", job.command], cwd=home, env=cron_env(home, env),
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=patience(180),
                          start_new_session=True)


def test_a_tick_as_cron_runs_it_says_nothing_when_all_is_well(installed: tuple[dict[str, str], Job, Path],
                                                              home: Path) -> None:
    env, job, state = installed
    proc = run_job(env, job, home)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout == "" and proc.stderr == ""  # cron mails nothing
    summary = (state / "tick.log").read_text()
    assert "Z tick: fetched 0, processed 0" in summary, summary
    assert (state / "referee.sqlite3").is_file()  # the embedded database was created on the first run


def test_a_failing_tick_is_mailed(installed: tuple[dict[str, str], Job, Path], home: Path) -> None:
    env, job, _ = installed
    Path(env["REFEREE_CONFIG"]).write_text('transport = "maildir"\ntick_intervall = 300\n')
    proc = run_job(env, job, home)
    # cron mails whatever a job prints, whatever its exit status
    assert "tick_intervall" in proc.stdout + proc.stderr  # what cron mails says what is wrong
    assert proc.returncode == 2


def test_a_lasting_fault_is_mailed_once_when_it_starts_and_once_when_it_ends(
        installed: tuple[dict[str, str], Job, Path], home: Path) -> None:
    """No mail can be fetched (here: a file where the inbox Maildir should be): nothing is mailed for the first
    hour (a server restarting is no fault), then one line when the fault starts, silence while it lasts (exit
    status 1: the step fails in each tick), and one line when it is mended."""
    env, job, state = installed
    (state / "mail").mkdir()
    (state / "mail" / "in").write_text("not a Maildir")

    def at(minute: int) -> subprocess.CompletedProcess[str]:
        return run_job({**env, "REFEREE_NOW": f"2026-06-01T{12 + minute // 60}:{minute % 60:02d}:00"}, job, home)

    runs = [at(m) for m in (0, 5, 30, 59)]
    assert [r.returncode for r in runs] == [1] * 4 and all(r.stdout == r.stderr == "" for r in runs)
    started = at(60)   # the first failure was at 12:00: an hour
    assert started.stdout.startswith("referee: fault started: the fetch step has failed since 2026-06-01T12:00")
    assert started.stdout.count("\n") == 1 and started.stderr == ""
    assert at(65).stdout == ""   # while it lasts: nothing
    (state / "mail" / "in").unlink()
    mended = at(70)
    assert mended.returncode == 0 and mended.stdout.startswith("referee: fault ended (since 2026-06-01T13:00")
    assert mended.stdout.count("\n") == 1 and mended.stderr == ""
    log = (state / "tick.log").read_text()
    assert log.count("tick: fetched") == 7 and "fetch" in log
