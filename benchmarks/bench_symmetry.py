"""Random scenarios against their turned and re-ordered twins: the engine's long run of the suite's
``tests/engine/test_symmetry.py`` (issue 33: no compass or listing order may decide).

    PYTHONPATH=$PWD .venv/bin/python benchmarks/bench_symmetry.py [--scenarios 2000] [--elements 30]
        [--robots 4] [--kinds classic|all] [--start 0]

Each scenario (seed ``bench-symmetry:<n>``) is played as written, re-ordered, and turned 90, 180 and 270
degrees (and re-ordered); the outcome of every robot (square, facing, damage, lives, flags, mode, statuses,
options) read back into the original frame must be the same. Prints each scenario that differs (with its
seed, to replay it in a test) and the count, and the time a scenario took.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.engine.symmetry import CLASSIC, EXTENDED, differences, random_scenario


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--scenarios", type=int, default=2000)
    ap.add_argument("--elements", type=int, default=30)
    ap.add_argument("--robots", type=int, default=4)
    ap.add_argument("--kinds", choices=("classic", "all"), default="all")
    ap.add_argument("--start", type=int, default=0)
    args = ap.parse_args()
    kinds = CLASSIC if args.kinds == "classic" else CLASSIC + EXTENDED
    bad = 0
    wall, cpu = time.perf_counter(), time.process_time()
    for n in range(args.start, args.start + args.scenarios):
        doc = random_scenario(random.Random(f"bench-symmetry:{n}"), kinds=kinds, elements=args.elements,
                              robots=args.robots)
        found = differences(doc, random.Random(f"bench-twin:{n}"))
        if found:
            bad += 1
            turns = ", ".join(f"{q * 90} degrees" if q else "re-ordered" for q, _, _ in found)
            print(f"scenario bench-symmetry:{n} differs ({turns})", flush=True)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    print(f"{args.scenarios} scenarios ({args.kinds} elements, up to {args.elements} each, {args.robots} robots), "
          f"5 runs each: {bad} differ; {wall:.1f} s wall, {cpu:.1f} s CPU, {1000 * cpu / args.scenarios:.1f} ms CPU "
          "a scenario")


if __name__ == "__main__":
    main()
