"""Where the CPU of a due turn goes, without a profiler's overhead.

    .venv/bin/python benchmarks/bench_turn_stages.py [GAMES] [RUNS]

Makes GAMES (20) four-player games on sprint as ``bench_scale.py`` does, then RUNS (4) times makes every
game's turn due and runs ``referee.cron.workers.resolve_due`` (resolved, drawn and queued; nothing sent). The
main steps are wrapped with CPU-time (``time.process_time``) counters; prints the CPU a turn in all (the
median of the runs, and each run) and in each step (nested steps are counted in their callers too).
"""

from __future__ import annotations

import functools
import importlib
import statistics
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
import bench_scale as B

ACC: dict[str, float] = {}


def wrap(modname: str, attr: str, label: str | None = None, owners: tuple[str, ...] | list[str] = ()) -> None:
    """Count the CPU of ``modname.attr`` (outermost calls only) in ACC, also where ``owners`` imported it."""
    mod = importlib.import_module(modname)
    fn = getattr(mod, attr)
    label = label or f"{modname.split('.')[-1]}.{attr}"
    depth = [0]

    @functools.wraps(fn)
    def w(*a: Any, **k: Any) -> Any:
        if depth[0]:
            return fn(*a, **k)
        depth[0] += 1
        c = time.process_time()
        try:
            return fn(*a, **k)
        finally:
            ACC[label] = ACC.get(label, 0) + time.process_time() - c
            depth[0] -= 1

    setattr(mod, attr, w)
    for o in owners:
        m = importlib.import_module(o)
        if getattr(m, attr, None) is fn:
            setattr(m, attr, w)


STEPS = [
    ("referee.render.turn", "build_report", ["referee.render.turn"]),
    ("referee.render.frames", "turn_frames", ["referee.render.turn"]),
    ("referee.render.png", "png_bytes", ["referee.render.turn"]),
    ("referee.render.motion", "animation", ["referee.render.turn"]),
    ("referee.render.gif", "gif_bytes", ["referee.render.turn"]),
    ("referee.render.turn", "legend_picture", []),
    ("referee.render.templates", "render_template", ["referee.render.mail"]),
    ("referee.render.mail", "build_message", []),
    ("referee.store.msgids", "stamp_and_serialise", ["referee.store.mail"]),
    ("referee.store.mail", "enqueue_mail", ["referee.reports.mails"]),
    ("referee.games.resolving", "resolve_turn", []),
    ("referee.reports.drawn", "draw_stored_turn", ["referee.reports.mails"]),
    ("referee.reports.mails", "enqueue_turn_mails", ["referee.games.resolving"]),
    ("referee.games.fills", "plan_missing", ["referee.cron.workers"]),
    ("referee.cron.due", "is_due", ["referee.cron.workers"]),
    ("referee.reports.mails", "threads_of", []),
    ("referee.store.mail", "enqueue_mails", ["referee.reports.mails"]),
    ("referee.reports.mails", "_private_section", []),
    ("referee.reports.mails", "_next_turn", []),
    ("referee.reports.mails", "_generation", []),
    ("referee.render.mail", "_inline_part", []),
    ("referee.render.mail", "turn_mail", ["referee.reports.mails"]),
    ("referee.store.wire", "wire_bytes", ["referee.store.msgids"]),
]


def main(games: int = 20, runs: int = 4) -> None:
    for m, a, o in STEPS:
        wrap(m, a, owners=o)
    from referee.cron.workers import resolve_due

    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        url = f"sqlite:///{tmp / 'b.sqlite3'}"
        store = B.Store(url)
        store.upgrade()
        settings = B.settings_for(url, tmp)
        codes = B.make_games(store, games, 4, "sprint")
        now = B.T0 + timedelta(minutes=5)
        B.tick(settings, now=now, store=store)
        tot = []
        for r in range(runs + 1):
            now += timedelta(minutes=5)
            B.send_all_programs(store, codes, now - timedelta(minutes=1))
            if r == 0:  # the first: floors, palettes, templates made (kept for the process)
                resolve_due(store, settings, now=now, worker="warm")
                ACC.clear()
                continue
            c = time.process_time()
            done = resolve_due(store, settings, now=now, worker="bench")
            tot.append((time.process_time() - c) / len(done))
        n = runs * games
        each = ", ".join(f"{t * 1e3:.0f}" for t in tot)
        print(f"total CPU a turn: {statistics.median(tot) * 1e3:.1f} ms (runs: {each})")
        for k, v in sorted(ACC.items(), key=lambda kv: -kv[1]):
            print(f"  {k:40s} {v / n * 1e3:6.1f} ms")


if __name__ == "__main__":
    main(*(int(x) for x in sys.argv[1:]))
