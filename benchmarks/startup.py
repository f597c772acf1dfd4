"""Start-up cost of the ``referee`` command, this checkout against an older one, side by side.

    .venv/bin/python benchmarks/startup.py [--old fff57f3 | --old-dir PATH] [--runs 20]

Each command runs as the console script runs it (a new Python process calling ``referee.launch:run``,
or ``referee.cli:main`` in a checkout from before it), with ``PYTHONPATH`` at the checkout measured, from
an empty directory:

- ``python -c pass``: the floor, a bare interpreter;
- ``referee --version`` and ``referee --help`` (goal: at most 3x the floor);
- ``referee ingest`` of one order mail piped in, as an MTA pipe runs it once per mail (into a SQLite
  database made beforehand with ``referee db upgrade`` by the same checkout).

The older checkout is a ``git archive`` of the commit given (default fff57f3, before lazy imports)
unpacked into a temporary directory, or a directory given with ``--old-dir``. Prints the median and
the fastest of ``--runs`` runs of each, in milliseconds, and each median as a multiple of the floor.
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: the console script: ``referee.launch:run`` where the checkout has it, else (older ones) ``referee.cli:main``
ENTRY = ("import sys; sys.argv[0] = 'referee'\n"
         "try:\n    from referee.launch import run\nexcept ImportError:\n    from referee.cli import main as run\n"
         "run()")
ORDER_MAIL = b"""\
From: alice@example.test
To: referee@example.test
Subject: Re: RR-1 turn 3
Message-ID: <bench-%d@example.test>
Content-Type: text/plain; charset=utf-8

BEGIN RR-1 Twonky turn 3 key 0123456789
1: FWD2 670
2: RT90 80
3: FWD1 490
4: RVS1 430
5: UTRN 10
END
"""


def unpack(commit: str, into: Path) -> Path:
    data = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", commit], check=True,
                          capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        tar.extractall(into, filter="data")
    return into


def timed(args: list[str], env: dict[str, str], cwd: Path, stdin: bytes | None = None) -> float:
    start = time.perf_counter()
    proc = subprocess.run(args, env=env, cwd=cwd, input=stdin, capture_output=True)
    took = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(args[-3:])} failed ({proc.returncode}): {proc.stderr.decode()[-500:]}")
    return took


def measure(checkout: Path, runs: int, work: Path) -> dict[str, list[float]]:
    work.mkdir(parents=True, exist_ok=True)
    config = work / "referee.toml"
    config.write_text(f'database_url = "sqlite:///{work / "referee.sqlite3"}"\ntransport = "smtp"\n'
                      'referee_address = "referee@example.test"\n')
    env = {"PATH": "/usr/bin:/bin", "HOME": str(work), "PYTHONPATH": str(checkout), "REFEREE_CONFIG": str(config)}
    python = sys.executable
    referee = [python, "-c", ENTRY]
    timed([*referee, "db", "upgrade"], env, work)
    times: dict[str, list[float]] = {"python -c pass": [], "referee --version": [], "referee --help": [],
                                     "referee ingest (one mail)": []}
    for n in range(runs):
        times["python -c pass"].append(timed([python, "-c", "pass"], env, work))
        times["referee --version"].append(timed([*referee, "--version"], env, work))
        times["referee --help"].append(timed([*referee, "--help"], env, work))
        times["referee ingest (one mail)"].append(timed([*referee, "ingest"], env, work, ORDER_MAIL % n))
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--old", default="fff57f3", help="commit of the older checkout (git archive)")
    parser.add_argument("--old-dir", type=Path, help="an older checkout already on disk")
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="referee-startup-") as tmp:
        base = Path(tmp)
        old = args.old_dir or unpack(args.old, base / "old")
        results = {"old": measure(old, args.runs, base / "work-old"),
                   "new": measure(ROOT, args.runs, base / "work-new")}
    floor = statistics.median(results["new"]["python -c pass"] + results["old"]["python -c pass"])
    label = f"old ({args.old_dir or args.old})"
    print(f"{args.runs} runs each; milliseconds, median (fastest); x = median / python -c pass ({floor * 1000:.0f} ms)")
    print(f"{'':28} {label:>26} {'new (this checkout)':>26}")
    for what in results["new"]:
        cells = []
        for side in ("old", "new"):
            values = results[side][what]
            median = statistics.median(values)
            cells.append(f"{median * 1000:6.0f} ({min(values) * 1000:4.0f}) {median / floor:5.1f}x")
        print(f"{what:28} {cells[0]:>26} {cells[1]:>26}")
    print(f"machine: {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
