"""Many workers, one PostgreSQL: a burst of due turns resolved by 1, 2, 4... ``referee resolve-due`` processes.

    .venv/bin/python benchmarks/bench_burst.py [--turns 10000] [--workers 1,2,4] [--players 2] [--course sprint]

Starts a private PostgreSQL server (``tests/store/pgcluster.py``: fsync off), makes ``--turns`` running games
(``--templates`` of them started through the store API, the rest copies of their rows), then for each worker
count in turn makes every game's open turn due (the clock, ``REFEREE_NOW``, moved past the deadline: the
players sent nothing and the games fill missing programs with the ``random`` policy, so the burst measures
the sharing of the turns, not the autopilot's search) and starts that many ``referee resolve-due --json``
processes at once. Each resolves, draws and queues the mails of the turns it claims
(:func:`referee.cron.workers.resolve_due`).

After each burst it checks that no turn was resolved twice: the workers' lists of resolved turns do not
overlap and cover every game, the audit log holds exactly one ``turn.resolve`` of that turn for each game,
and every game moved on by one turn. It prints, per worker count, the wall time from the start of the
processes to the last one's end, the turns a second, and the CPU the workers used (their own processes;
the database server's is not counted, it runs on the same cores).

Not CI: a measurement. On a 2-core machine more than two workers cannot run at once, and the database
server shares the same two cores, so what it shows is that the turns are shared without doubles and how
far two workers get beyond one, not how throughput grows with more machines.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path

from sqlalchemy import func, select, update

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_scale import clone_games, make_games

from referee.store import Store
from referee.store.models import AuditEntry, Game

T0 = datetime(2026, 3, 1, 12, tzinfo=UTC)
#: the games' deadline (bench_scale's games: five days), and a minute past it
PAST_DEADLINE = timedelta(days=5, minutes=1)


def worker_env(url: str, tmp: Path, now: datetime) -> dict[str, str]:
    return {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp), "REFEREE_CONFIG": "",
            "REFEREE_DATABASE_URL": url, "REFEREE_TRANSPORT": "maildir", "REFEREE_MAILDIR_IN": str(tmp / "in"),
            "REFEREE_MAILDIR_OUT": str(tmp / "out"), "REFEREE_LOCK_FILE": str(tmp / "tick.lock"),
            "REFEREE_REFEREE_ADDRESS": "referee@example.test", "REFEREE_TICK_INTERVAL": "86400",
            "REFEREE_NOW": now.isoformat()}


def burst(url: str, tmp: Path, now: datetime, workers: int) -> tuple[float, float, list[list[str]]]:
    """``workers`` resolve-due processes started together: (wall seconds, their CPU seconds, each one's turns)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    procs = [subprocess.Popen([sys.executable, "-m", "referee.cli", "resolve-due", "--json", "--worker", f"w{k + 1}"],
                              env=worker_env(url, tmp, now), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, cwd=str(tmp)) for k in range(workers)]
    outs = []
    for proc in procs:
        out, err = proc.communicate()
        if proc.returncode:
            raise SystemExit(f"a worker failed ({proc.returncode}):\n{out[-2000:]}{err[-2000:]}")
        outs.append(json.loads(out)["resolved"])
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, outs


def check_once(store: Store, codes: list[str], number: int, resolved: list[list[str]]) -> None:
    """Turn ``number`` of every game resolved exactly once (see the module's docstring); SystemExit if not."""
    said = Counter(item for turns in resolved for item in turns)
    twice = [item for item, n in said.items() if n > 1]
    if twice:
        raise SystemExit(f"TURNS RESOLVED TWICE by the workers' own account: {twice[:5]}")
    if set(said) != {f"{code} turn {number}" for code in codes}:
        raise SystemExit(f"the workers resolved {len(said)} turns, not the {len(codes)} due")
    with store.read() as s:
        audit = Counter(s.execute(select(AuditEntry.game_id).where(AuditEntry.action == "turn.resolve",
                                                                   AuditEntry.turn_number == number)).scalars())
        numbers = Counter(s.execute(select(Game.turn_number)).scalars())
    if len(audit) != len(codes) or set(audit.values()) != {1}:
        raise SystemExit(f"TURN {number} NOT RESOLVED ONCE PER GAME by the audit log: {Counter(audit.values())}")
    if numbers != Counter({number + 1: len(codes)}):
        raise SystemExit(f"the games are not all at turn {number + 1}: {numbers}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--turns", type=int, default=10000, help="due turns in each burst (one per game)")
    ap.add_argument("--workers", default="1,2,4", help="worker counts, one burst each")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--course", default="sprint")
    ap.add_argument("--templates", type=int, default=20, help="games started through the store API; the rest copies")
    args = ap.parse_args()
    from tests.store.pgcluster import PostgresCluster

    counts = [int(w) for w in args.workers.split(",") if w]
    with tempfile.TemporaryDirectory(prefix="bench-burst-") as tmpdir, PostgresCluster.start() as pg:
        tmp = Path(tmpdir)
        url = pg.create_database("bench_burst")
        store = Store(url)
        store.upgrade()
        t0 = time.perf_counter()
        templates = make_games(store, min(args.templates, args.turns), args.players, args.course)
        with store.write() as s:   # missing programs filled at random: the burst is about sharing the turns
            s.execute(update(Game).values(missing_orders="random"))
        codes = clone_games(store, templates, templates, args.turns) if args.turns > len(templates) else templates
        with store.read() as s:
            assert s.scalar(select(func.count()).select_from(Game)) == len(codes)
        print(f"postgresql: {len(codes)} games of {args.players} players on {args.course} made in "
              f"{time.perf_counter() - t0:.0f} s; {os.cpu_count()} cores", flush=True)
        now = T0
        rows = []
        for number, workers in enumerate(counts, start=1):
            now += PAST_DEADLINE
            wall, cpu, resolved = burst(url, tmp, now, workers)
            check_once(store, codes, number, resolved)
            rows.append((workers, wall, cpu))
            print(f"{workers} worker(s): {len(codes)} due turns (turn {number} of every game) in {wall:.1f} s wall, "
                  f"{len(codes) / wall:.1f} turns/s; workers' CPU {cpu:.1f} s "
                  f"({cpu / len(codes) * 1e3:.0f} ms a turn); "
                  f"turns each: {', '.join(str(len(r)) for r in resolved)}; none resolved twice", flush=True)
        base = rows[0][1]
        print("throughput against one worker: " + ", ".join(f"{w}: {base / wall:.2f}x" for w, wall, _ in rows))
        store.close()


if __name__ == "__main__":
    main()
