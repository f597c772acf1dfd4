"""Child processes measured and killed by the work they did, not by the clock: tests that hold on a loaded machine.

A busy machine stretches wall time, not processor time. A kill test that killed "0.8 s after the start"
killed a process at a different point of its work on a quiet machine and on a loaded one (and on a loaded
one often during start-up only). :func:`kill_at_cpu` kills once the child has used a given processor time,
which is the same point of its work (to a clock tick) whatever else runs; :func:`run_measured` gives the
processor time of a whole run to choose such points from.

:func:`patience` is the one wall-clock limit of the suite's waits: a limit that only a hung process reaches,
scaled by the machine's load (and ``REFEREE_TEST_PATIENCE``, a factor for very slow machines).
"""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import time
from pathlib import Path

from .forked import Forked

_CLOCK_TICK = os.sysconf("SC_CLK_TCK")
#: how often a child's processor time is looked at while waiting to kill it
_POLL = 0.002


def patience(seconds: float) -> float:
    """A wall-clock limit for what takes well under ``seconds`` on a quiet machine: ``seconds`` times the
    load per core (at least 1) times ``REFEREE_TEST_PATIENCE`` (default 1). Reached only by a real hang."""
    cores = os.cpu_count() or 1
    load = os.getloadavg()[0] / cores
    factor = float(os.environ.get("REFEREE_TEST_PATIENCE") or 1)
    return seconds * max(1.0, load) * max(1.0, factor)


#: what a test waits at most for one child process that should take seconds: only a hang reaches it
HANG = 600.0 * max(1.0, float(os.environ.get("REFEREE_TEST_PATIENCE") or 1))


def cpu_seconds(pid: int) -> float | None:
    """Processor time (user + system) the process ``pid`` has used so far; None once it is gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return None
    fields = stat.rsplit(")", 1)[1].split()  # after the command name: state, ppid, ... utime, stime
    return (int(fields[11]) + int(fields[12])) / _CLOCK_TICK


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_measured(proc: subprocess.Popen[bytes] | Forked, *, timeout: float = HANG) -> tuple[bytes, bytes, float]:
    """Let ``proc`` finish: its output and error output, and the processor time it used."""
    before = _children_cpu()
    out, err = proc.communicate(timeout=timeout)
    return out, err, proc.cpu if isinstance(proc, Forked) else _children_cpu() - before


def kill_at_cpu(proc: subprocess.Popen[bytes] | Forked, cpu: float, *, timeout: float = HANG) -> bool:
    """SIGKILL ``proc`` once it has used ``cpu`` seconds of processor time, unless it ends first; whether
    it died of SIGKILL. Its output is read meanwhile (a full pipe never holds it up)."""
    began = time.monotonic()
    while True:
        try:
            proc.communicate(timeout=_POLL)
            break
        except subprocess.TimeoutExpired:
            used = cpu_seconds(proc.pid)
            if used is not None and used >= cpu:
                proc.send_signal(signal.SIGKILL)
            elif time.monotonic() - began > timeout:
                proc.kill()
                proc.communicate()
                raise AssertionError(f"{proc.args!r} still running after {timeout:.0f} s: hung") from None
    return proc.returncode == -signal.SIGKILL


def children(pid: int) -> list[str]:
    """The command names of the processes ``pid`` started (and has not yet reaped)."""
    names = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except (FileNotFoundError, ProcessLookupError):
            continue
        name, _, rest = text.partition(" (")[2].rpartition(") ")
        if int(rest.split()[1]) == pid:
            names.append(name)
    return names


def wait_for_child(pid: int, name: str, *, timeout: float = HANG) -> None:
    """Until ``pid`` runs a child named ``name`` (a step of a shell script reached, however slow the machine)."""
    began = time.monotonic()
    while name not in children(pid):
        assert time.monotonic() - began < timeout, f"process {pid} ran no {name!r} in {timeout:.0f} s"
        time.sleep(0.01)


def blocked_on(pid: int, path: Path) -> bool:
    """Whether ``pid`` has ``path`` open and is asleep (not running, not wanting to run): waiting on a lock
    of that file, for a process whose next step is to write to it."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
        opened = {os.readlink(fd) for fd in Path(f"/proc/{pid}/fd").iterdir()}
    except (FileNotFoundError, ProcessLookupError):
        return False
    return stat.rsplit(")", 1)[1].split()[0] == "S" and str(path.resolve()) in opened
