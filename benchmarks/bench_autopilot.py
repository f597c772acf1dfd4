"""Autopilot speed: one full search of a hand (every distinct program), median over many hands.

    .venv/bin/python benchmarks/bench_autopilot.py [--course sprint] [--hands 30] [--sizes 9,8,7,5]

For each hand size, deals seeded hands to one robot placed on random squares and facings of the
course (three other robots stand on start squares), and times :func:`plan_program` to the end of
its search. Prints the median wall-clock and process CPU time per search (on a busy machine the
CPU time is the one-core figure), the worst wall-clock time, and the register steps per search.
The course map (one-register moves of every square, built once per board and cached) is timed
apart. One core, one process.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from referee.autopilot import course_map, plan_program
from referee.boards import load_board
from referee.engine import DECK, Robot, locked_registers
from referee.engine.geometry import squares_of


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--course", default="sprint")
    ap.add_argument("--hands", type=int, default=30)
    ap.add_argument("--sizes", default="9,8,7,5")
    args = ap.parse_args()
    board = load_board(args.course)
    t0 = time.perf_counter()
    course = course_map(board)
    for flag in board.flags:
        course.distances(flag)
    print(f"course {args.course} ({board.width}x{board.height}, {len(course.moves)} square-facings): "
          f"course map built in {time.perf_counter() - t0:.2f} s (once per board)")
    squares = [sq for sq in squares_of(board.width, board.height) if board.on_board(sq)]
    starts = [board.starts[n] for n in sorted(board.starts)]
    for size in (int(s) for s in args.sizes.split(",")):
        rng = random.Random(f"bench:{size}")
        times: list[float] = []
        cpu_times: list[float] = []
        steps: list[int] = []
        for i in range(args.hands):
            damage = 9 - size
            cards = rng.sample(DECK, 9)
            hand, spare = cards[:size], cards[size:]
            locked = dict(zip(locked_registers(damage), spare, strict=False))
            me = Robot("Me", rng.choice(squares), rng.randrange(4), damage=damage,
                       flags=rng.randrange(len(board.flags)), archive=starts[0])
            others = [Robot(f"R{k}", sq, 0, archive=sq) for k, sq in enumerate(starts[1:4]) if sq != me.pos]
            t, cpu = time.perf_counter(), time.process_time()
            plan = plan_program(board, [me, *others], "Me", hand, locked=locked, seed=f"b{i}", course=course)
            times.append(time.perf_counter() - t)
            cpu_times.append(time.process_time() - cpu)
            steps.append(plan.steps)
            assert plan.complete
        med = statistics.median(times)
        print(f"  {size}-card hand ({len(locked_registers(9 - size))} fused): median {med * 1000:6.1f} ms "
              f"(CPU {statistics.median(cpu_times) * 1000:6.1f} ms), worst {max(times) * 1000:6.1f} ms, "
              f"median {statistics.median(steps):,.0f} register steps")


if __name__ == "__main__":
    main()
