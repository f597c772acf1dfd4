"""Autopilot speed: one full search of a hand (every distinct program), over many hands.

    .venv/bin/python benchmarks/bench_autopilot.py [--course sprint,grand-prix] [--hands 40] [--sizes 9,8,7,5]
        [--against /tmp/pilot-old] [--repeat 3] [--planner still|against]

For each course and hand size, deals seeded hands to one robot placed on random squares and facings
of the course (three other robots stand on start squares), and times :func:`plan_program` to the end
of its search in process CPU time (the one-core figure, fair on a busy machine). Prints the median,
95th percentile and worst CPU time per search and the median register steps.

``--planner against`` times :func:`plan_against_others` (the planner that predicts the others) instead,
on hands where the three other robots stand within four squares of the robot (rows plus columns) with
random facings and damage: the crowded hands where it predicts and hedges. Its programs are not
the standing-still search's, so the check compares nothing there.

``--against TREE`` runs the same hands with another checkout's code (``PYTHONPATH=TREE``, in a child
process) right after this one, ``--repeat`` times in turn, and prints both side by side (the median
of the repeats' figures) with a check that both chose programs of the same score. One core.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from typing import Any

from referee.autopilot import course_map, plan_against_others, plan_program
from referee.boards import load_board
from referee.engine import DECK, Robot, locked_registers
from referee.engine.geometry import squares_of


def measure(courses: list[str], hands: int, sizes: list[int], planner: str = "still") -> dict[str, Any]:
    """(course, size) -> CPU times (s), steps and the scores of the plans."""
    out: dict[str, Any] = {}
    for name in courses:
        board = load_board(name)
        course = course_map(board)
        for flag in board.flags:
            course.distances(flag)
        squares = [sq for sq in squares_of(board.width, board.height) if board.on_board(sq)]
        starts = [board.starts[n] for n in sorted(board.starts)]
        for size in sizes:
            rng = random.Random(f"bench:{size}")
            cpu: list[float] = []
            steps: list[int] = []
            scores: list[list[int]] = []
            for i in range(hands):
                damage = 9 - size
                cards = rng.sample(DECK, 9)
                hand, spare = cards[:size], cards[size:]
                locked = dict(zip(locked_registers(damage), spare, strict=False))
                me = Robot("Me", rng.choice(squares), rng.randrange(4), damage=damage,
                           flags=rng.randrange(len(board.flags)), archive=starts[0])
                others = [Robot(f"R{k}", sq, 0, archive=sq) for k, sq in enumerate(starts[1:4]) if sq != me.pos]
                if planner == "against":
                    others = crowd(rng, me, squares)
                t = time.process_time()
                if planner == "against":
                    plan = plan_against_others(board, [me, *others], "Me", hand, locked=locked, seed=f"b{i}",
                                               course=course)
                else:
                    plan = plan_program(board, [me, *others], "Me", hand, locked=locked, seed=f"b{i}", course=course)
                cpu.append(time.process_time() - t)
                steps.append(plan.steps)
                scores.append([int(x) for x in plan.score])
            out[f"{name}:{size}"] = {"cpu": cpu, "steps": steps, "scores": scores}
    return out


def crowd(rng: random.Random, me: Robot, squares: list[tuple[int, int]]) -> list[Robot]:
    """Three robots on squares within four of ``me``'s, random facings and damage (no fused register)."""
    assert me.pos is not None
    near = [sq for sq in squares if 0 < abs(sq[0] - me.pos[0]) + abs(sq[1] - me.pos[1]) <= 4]
    out = []
    for k, sq in enumerate(rng.sample(near, 3)):
        out.append(Robot(f"R{k}", sq, rng.randrange(4), damage=rng.randrange(5), archive=sq))
    return out


def figures(cpu: list[float]) -> tuple[float, float, float]:
    """Median, 95th percentile and worst, in ms."""
    p95 = statistics.quantiles(cpu, n=20, method="inclusive")[-1]
    return statistics.median(cpu) * 1000, p95 * 1000, max(cpu) * 1000


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--course", default="sprint,grand-prix")
    ap.add_argument("--hands", type=int, default=40)
    ap.add_argument("--sizes", default="9,8,7,5")
    ap.add_argument("--against", help="another checkout to run the same hands with, side by side")
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--planner", choices=("still", "against"), default="still")
    ap.add_argument("--json", action="store_true", help=argparse.SUPPRESS)  # the child's answer
    args = ap.parse_args()
    courses, sizes = args.course.split(","), [int(s) for s in args.sizes.split(",")]
    if args.json:
        json.dump(measure(courses, args.hands, sizes, args.planner), sys.stdout)
        return
    runs: dict[str, list[dict[str, Any]]] = {"this tree": [], args.against or "": []}
    for _ in range(args.repeat):
        runs["this tree"].append(measure(courses, args.hands, sizes, args.planner))
        if args.against:
            env = {**os.environ, "PYTHONPATH": args.against}
            child = subprocess.run([sys.executable, __file__, "--course", args.course, "--hands", str(args.hands),
                                    "--sizes", args.sizes, "--planner", args.planner, "--json"], env=env, check=True,
                                   capture_output=True, text=True, cwd=args.against)
            runs[args.against].append(json.loads(child.stdout))
    print(f"CPU ms per {args.planner} plan over {args.hands} hands (median of {args.repeat} runs):"
          " median / p95 / worst")
    for key in runs["this tree"][0]:
        line = f"  {key:<16}"
        for label, results in runs.items():
            if not results:
                continue
            figs = [figures(r[key]["cpu"]) for r in results]
            med, p95, worst = (statistics.median(f[i] for f in figs) for i in range(3))
            steps = statistics.median(results[0][key]["steps"])
            line += f" | {label}: {med:6.1f} / {p95:6.1f} / {worst:6.1f} ({steps:,.0f} steps)"
        if args.against and args.planner == "still":
            same = runs["this tree"][0][key]["scores"] == runs[args.against][0][key]["scores"]
            line += " | same scores" if same else " | SCORES DIFFER"
        print(line)


if __name__ == "__main__":
    main()
