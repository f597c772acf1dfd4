"""The autopilot plans the same in two trees: the hands of real games, planned by both, programs compared.

    PYTHONPATH=$PWD .venv/bin/python benchmarks/autopilot_same.py --against /path/to/checkout \\
        [--courses factory,sprint,grand-prix] [--games 2] [--repeat 2]

Plays ``--games`` seeded games per course as ``strength_autopilot.py --opponents still`` plays them (two robots
of the planner that plans against the others, two of the standing-still planner), keeping every hand the
autopilot side planned (robots, hand, fused registers, seed). Then it plans each kept hand again with this
tree and with the other one (a child process, ``PYTHONPATH=TREE``), turn about, ``--repeat`` times, and prints
per course how many programs or power-down choices differ between the trees (a speed-up must give 0) and the
CPU per hand of each, median and 95th percentile (the garbage collector paused, as the referee plans),
with their ratio: figures of one run, fair on a busy machine. The hands go to the child pickled, so both
trees must share the engine's ``Robot`` and ``Card``. Exits 1 if any program differs.
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from referee.autopilot import course_map, plan_against_others
from referee.boards import load_board
from referee.common.gcpause import gc_paused
from referee.engine import Board, Card, Robot

#: a kept hand: course, robots, the planner's robot, hand, fused registers, seed
Hand = tuple[str, list[Robot], str, list[Card], dict[int, Card], float]


def collect(courses: list[str], games: int) -> list[Hand]:
    """The hands the autopilot side planned in ``games`` games per course."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import strength_autopilot as sa

    hands: list[Hand] = []
    for course in courses:
        def keep(board: Board, me: Robot, robots: list[Robot], hand: list[Card], locked: dict[int, Card],
                 rng: random.Random, course: str = course) -> list[Card | None]:
            seed = rng.random()
            hands.append((course, [r.copy() for r in robots], me.name, list(hand), dict(locked), seed))
            plan = plan_against_others(board, robots, me.name, hand, locked=locked, seed=seed)
            if plan.power_down:
                sa.ANNOUNCED.add(me.name)
            return plan.program
        sa.games_of(course, "still", sa.still, keep, 0, games, 30, False)
    return hands


def replay(hands: list[Hand]) -> dict[str, Any]:
    """Each hand planned again: its program and power-down choice as text, and its CPU seconds."""
    boards: dict[str, Board] = {}
    out: dict[str, Any] = {"plans": [], "cpu": []}
    for course, robots, name, hand, locked, seed in hands:
        board = boards.get(course)
        if board is None:
            board = boards[course] = load_board(course)
            course_map(board)
        t = time.process_time()
        with gc_paused():
            plan = plan_against_others(board, robots, name, hand, locked=locked, seed=seed)
        out["cpu"].append(time.process_time() - t)
        out["plans"].append(f"{' '.join(map(str, plan.program))} {plan.power_down}")
    return out


def figures(cpu: list[float]) -> tuple[float, float]:
    """Median and 95th percentile, in ms."""
    p95 = statistics.quantiles(cpu, n=20, method="inclusive")[-1] if len(cpu) > 1 else cpu[0]
    return statistics.median(cpu) * 1000, p95 * 1000


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--against", help="another checkout to plan the same hands with")
    ap.add_argument("--courses", default="factory,sprint,grand-prix")
    ap.add_argument("--games", type=int, default=2, help="games per course whose hands are kept")
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--replay", help=argparse.SUPPRESS)  # the child: plan these pickled hands, answer JSON
    args = ap.parse_args()
    if args.replay:
        import referee
        assert referee.__file__.startswith(os.environ.get("PYTHONPATH", "")), referee.__file__
        with open(args.replay, "rb") as f:
            print(json.dumps(replay(pickle.load(f))))
        return
    hands = collect(args.courses.split(","), args.games)
    with tempfile.NamedTemporaryFile(suffix=".pickle", delete=False) as f:
        pickle.dump(hands, f)
    try:
        runs: dict[str, list[dict[str, Any]]] = {"this": [], "against": []}
        for _ in range(args.repeat):
            runs["this"].append(replay(hands))
            if args.against:
                env = {**os.environ, "PYTHONPATH": args.against}
                child = subprocess.run([sys.executable, __file__, "--replay", f.name], env=env, cwd=args.against,
                                       capture_output=True, text=True, check=True)
                runs["against"].append(json.loads(child.stdout))
    finally:
        os.unlink(f.name)
    differ = 0
    for course in args.courses.split(","):
        at = [i for i, h in enumerate(hands) if h[0] == course]
        line = f"{course}: {len(at)} hands"
        for label, got in runs.items():
            if not got:
                continue
            # each hand's least CPU over the repeats (the least disturbed by the rest of the machine)
            med, p95 = figures([min(run["cpu"][i] for run in got) for i in at])
            line += f"; {label} median {med:.0f} ms, p95 {p95:.0f} ms"
        if runs["against"]:
            mine = figures([min(run["cpu"][i] for run in runs["this"]) for i in at])
            theirs = figures([min(run["cpu"][i] for run in runs["against"]) for i in at])
            changed = sum(runs["this"][0]["plans"][i] != runs["against"][0]["plans"][i] for i in at)
            differ += changed
            line += f"; ratio p95 {mine[1] / theirs[1]:.2f}; programs that differ: {changed}"
        print(line, flush=True)
    if differ:
        sys.exit(1)


if __name__ == "__main__":
    main()
