"""Search speed: one robot's register steps, each from a copy of the turn state, without a log.

    .venv/bin/python benchmarks/bench_stepping.py [--course grand-prix] [--steps 20000]

A search tries cards one register at a time from a position: copy the turn (``TurnRun.copy``),
put a card in the next register, step it (``TurnRun.step``, events off). Prints register steps per
second for copy + step, and for the step alone. One robot, one core, one process.
"""

from __future__ import annotations

import argparse
import random
import time

from referee.boards import load_board
from referee.engine import DECK, Robot, TurnRun
from referee.engine.geometry import N


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--course", default="grand-prix")
    ap.add_argument("--steps", type=int, default=20000)
    args = ap.parse_args()
    board = load_board(args.course)
    start = board.starts[min(board.starts)]
    rng = random.Random(1)
    robot = Robot("Twonky", start, N, archive=start)
    base = TurnRun(board, [robot], {"Twonky": [None] * 5}, seed="bench", record=False)
    cards = [rng.choice(DECK) for _ in range(args.steps)]
    copy_total = step_total = 0.0
    run = base
    for i, card in enumerate(cards):
        if run.done or run.robots[0].pos is None:
            run = base
        t0 = time.perf_counter()
        trial = run.copy()
        trial.set_card("Twonky", trial.phases_run + 1, card)
        t1 = time.perf_counter()
        trial.step()
        t2 = time.perf_counter()
        copy_total += t1 - t0
        step_total += t2 - t1
        run = trial if i % 5 else base  # walk a few registers deep, then start again
    print(f"course {args.course} ({board.width}x{board.height}), 1 robot, {args.steps} register steps")
    print(f"copy + step: {args.steps / (copy_total + step_total):,.0f} steps/s; "
          f"step alone: {args.steps / step_total:,.0f} steps/s")


if __name__ == "__main__":
    main()
