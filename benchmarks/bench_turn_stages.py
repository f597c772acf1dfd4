"""Where the CPU of a due turn goes, without a profiler's overhead.

    .venv/bin/python benchmarks/bench_turn_stages.py [GAMES] [RUNS] [--against TREE] [--rounds 3]

Makes GAMES (20) four-player games on sprint as ``bench_scale.py`` does, then RUNS (4) times makes every
game's turn due and runs ``referee.cron.workers.resolve_due`` (resolved, drawn and queued; nothing sent). The
main steps are wrapped with CPU-time (``time.process_time``) counters; prints the CPU a turn in all (the
median of the runs, and each run) and in each step (nested steps are counted in their callers too).

``--against TREE`` (issue 46: figures side by side, never alone on a shared machine) runs the same thing in
child processes, ROUNDS times each, this tree and TREE (``PYTHONPATH=TREE``, e.g. a ``git worktree`` of
main) taking turns, and prints the median CPU a turn of each and their ratio (goal: a due four-player turn
at most 25 ms).
"""

from __future__ import annotations

import argparse
import functools
import importlib
import json
import os
import statistics
import subprocess
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
    try:
        mod = importlib.import_module(modname)
        fn = getattr(mod, attr)
    except (ImportError, AttributeError):  # a step another tree does not have
        return
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
    # (a tree whose GIF is written as its frames are drawn: their drawing is counted in gif_bytes)
    ("referee.render.motion", "animated", ["referee.render.turn"]),
    ("referee.render.gif", "gif_bytes", ["referee.render.turn"]),
    ("referee.render.templates", "render_template", ["referee.render.mail"]),
    ("referee.render.mail", "build_message", []),
    ("referee.store.msgids", "stamp_and_serialise", ["referee.store.mail", "referee.store.outbox"]),
    ("referee.store.mail", "enqueue_mail", ["referee.reports.mails"]),
    ("referee.store.outbox", "enqueue_mails", ["referee.reports.mails"]),
    ("referee.store.outbox", "_policy", []),
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
    ("referee.render.turn", "light_turn_mail", ["referee.reports.mails"]),
    ("referee.render.mail", "turn_mail", ["referee.reports.mails", "referee.render.turn"]),
    ("referee.render.turn", "legend_picture", ["referee.render.turn"]),
    ("referee.store.wire", "wire_bytes", ["referee.store.msgids"]),
]


def measure(games: int = 20, runs: int = 4) -> tuple[list[float], dict[str, float]]:
    """(the CPU a turn of each run, the CPU a turn of each step) in this process."""
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
            if r == 0:  # the first: floors, palettes, keys, templates made (kept for the process)
                c = time.process_time()
                resolve_due(store, settings, now=now, worker="warm")
                ACC.clear()
                first = time.process_time() - c
                continue
            c = time.process_time()
            done = resolve_due(store, settings, now=now, worker="bench")
            tot.append((time.process_time() - c) / len(done))
        n = runs * games
        return tot, {"(the first run, all its turns)": first, **{k: v / n for k, v in ACC.items()}}


def show(tot: list[float], steps: dict[str, float]) -> None:
    each = ", ".join(f"{t * 1e3:.0f}" for t in tot)
    print(f"total CPU a turn: {statistics.median(tot) * 1e3:.1f} ms (runs: {each})")
    for k, v in sorted(steps.items(), key=lambda kv: -kv[1]):
        print(f"  {k:40s} {v * 1e3:6.1f} ms")


def against(tree: str, games: int, runs: int, rounds: int) -> None:
    """This tree and ``tree`` in child processes, taking turns: the median CPU a turn of each."""
    here = str(Path(__file__).resolve().parent.parent)
    trees = {"this tree": here, "against": str(Path(tree).resolve())}
    got: dict[str, list[float]] = {k: [] for k in trees}
    steps: dict[str, dict[str, list[float]]] = {k: {} for k in trees}
    for _ in range(rounds):
        for name, path in trees.items():
            env = {**os.environ, "PYTHONPATH": path}
            out = subprocess.run([sys.executable, __file__, str(games), str(runs), "--json"], env=env, cwd="/",
                                 capture_output=True, text=True, check=True)
            tot, each = json.loads(out.stdout)
            got[name] += tot
            for k, v in each.items():
                steps[name].setdefault(k, []).append(v)
    for name in trees:
        print(f"{name} ({trees[name]}):")
        show(got[name], {k: statistics.median(v) for k, v in steps[name].items()})
    mine, theirs = statistics.median(got["this tree"]), statistics.median(got["against"])
    print(f"CPU a due turn: {mine * 1e3:.1f} ms against {theirs * 1e3:.1f} ms: {theirs / mine:.2f}x "
          f"({games} games, {runs} runs x {rounds} rounds each)")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("games", nargs="?", type=int, default=20)
    ap.add_argument("runs", nargs="?", type=int, default=4)
    ap.add_argument("--against", help="another checkout, measured side by side")
    ap.add_argument("--rounds", type=int, default=3, help="child runs of each tree with --against")
    ap.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.json:
        print(json.dumps(measure(args.games, args.runs)))
    elif args.against:
        against(args.against, args.games, args.runs, args.rounds)
    else:
        show(*measure(args.games, args.runs))


if __name__ == "__main__":
    main()
