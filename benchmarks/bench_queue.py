"""Where a due turn's CPU goes between building its mails and queueing them, in a real tick.

    .venv/bin/python benchmarks/bench_queue.py --games 30 --ticks 3

Makes N four-player games on sprint (as ``bench_scale.py`` does), then runs ticks that each resolve every
game's turn, and counts the process CPU time (``time.process_time``) spent in three steps of
``referee.reports.mails.enqueue_turn_mails``, per turn (five mails: four players and the GM):

- ``build``: ``turn_mail``, each player's MIME message built (text and HTML from the templates, headers);
- ``queue``: ``enqueue_mails`` (``enqueue_mail`` before), each mail's Message-ID stamped, serialised once and
  inserted in the outbox, the turn's mails together;
- ``tick``: the whole tick, for scale (resolving, drawing, building, queueing).

The steps are timed by wrapping the two functions in this process: no profiler, so the figures are those
the tick pays. Medians over the ticks; the first tick (imports, caches) is not counted.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_scale as scale

from referee.cron.tick import tick
from referee.reports import mails
from referee.store import Store

SPENT: dict[str, float] = {"build": 0.0, "queue": 0.0}


def timed(name: str, fn: Any) -> Any:
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        c0 = time.process_time()
        try:
            return fn(*args, **kwargs)
        finally:
            SPENT[name] += time.process_time() - c0
    return wrapper


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=30)
    ap.add_argument("--ticks", type=int, default=3, help="ticks that resolve every game's turn (one more to warm up)")
    args = ap.parse_args()
    mails.turn_mail = timed("build", mails.turn_mail)  # type: ignore[attr-defined]
    mails.enqueue_mail = timed("queue", mails.enqueue_mail)  # type: ignore[attr-defined]
    mails.enqueue_mails = timed("queue", mails.enqueue_mails)  # type: ignore[attr-defined]
    rows: list[tuple[float, float, float]] = []
    with tempfile.TemporaryDirectory(prefix="bench-queue-") as tmpdir:
        tmp = Path(tmpdir)
        url = f"sqlite:///{tmp / 'bench.sqlite3'}"
        store = Store(url)
        store.upgrade()
        settings = scale.settings_for(url, tmp)
        codes = scale.make_games(store, args.games, 4, "sprint")
        now = scale.T0 + timedelta(minutes=5)
        tick(settings, now=now, store=store)
        for i in range(args.ticks + 1):
            now += timedelta(minutes=5)
            scale.send_all_programs(store, codes, now - timedelta(minutes=1))
            SPENT.update(build=0.0, queue=0.0)
            c0 = time.process_time()
            summary = tick(settings, now=now, store=store)
            cpu = time.process_time() - c0
            n = summary.resolved if isinstance(summary.resolved, int) else len(summary.resolved)
            assert n == len(codes), summary.line()
            per = (cpu / n * 1e3, SPENT["build"] / n * 1e3, SPENT["queue"] / n * 1e3)
            print(f"tick {i}: {n} turns; a turn: {per[0]:.0f} ms CPU, build {per[1]:.1f} ms, queue {per[2]:.1f} ms"
                  + (" (warm-up, not counted)" if i == 0 else ""))
            if i:
                rows.append(per)
        store.close()
    med = [statistics.median(r[k] for r in rows) for k in range(3)]
    print(f"median a turn: {med[0]:.0f} ms CPU; build {med[1]:.1f} ms ({med[1] / med[0]:.0%}), "
          f"queue {med[2]:.1f} ms ({med[2] / med[0]:.0%})")


if __name__ == "__main__":
    main()
