"""Random scenarios against their turned and re-ordered twins: the engine's long run of the suite's
``tests/engine/test_symmetry.py`` (issues 33 and 44: no compass, listing or seat order may decide).

    PYTHONPATH=$PWD .venv/bin/python benchmarks/bench_symmetry.py [--scenarios 1000] [--elements 30]
        [--robots 4] [--kinds families|all|classic|floors|devices] [--start 0]

``--kinds families`` (the default) runs ``--scenarios`` scenarios for each family of registered kinds
(``tests.engine.symmetry.families``: classic, floors, devices; a kind registered later joins its family
without editing anything). Each scenario (seed ``bench-symmetry:<family>:<n>``) is played as written,
re-ordered, and turned 90, 180 and 270 degrees (and re-ordered); the outcome of every robot (square, facing,
damage, lives, flags, mode, statuses, options) read back into the original frame must be the same. Prints
each scenario that differs (with its seed, to replay it in a test) and the count per family, and the time a
scenario took.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.engine.symmetry import all_kinds, differences, families, random_scenario


def run_family(name: str, kinds: tuple[str, ...], args: argparse.Namespace) -> int:
    bad = 0
    wall, cpu = time.perf_counter(), time.process_time()
    for n in range(args.start, args.start + args.scenarios):
        doc = random_scenario(random.Random(f"bench-symmetry:{name}:{n}"), kinds=kinds, elements=args.elements,
                              robots=args.robots)
        found = differences(doc, random.Random(f"bench-twin:{name}:{n}"))
        if found:
            bad += 1
            turns = ", ".join(f"{q * 90} degrees" if q else "re-ordered" for q, _, _ in found)
            print(f"scenario bench-symmetry:{name}:{n} differs ({turns})", flush=True)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    print(f"{name} ({len(kinds)} kinds): {args.scenarios} scenarios, up to {args.elements} elements and "
          f"{args.robots} robots, 5 runs each: {bad} differ; {wall:.1f} s wall, {cpu:.1f} s CPU, "
          f"{1000 * cpu / args.scenarios:.1f} ms CPU a scenario", flush=True)
    return bad


def main() -> None:
    groups = families()
    ap = argparse.ArgumentParser()
    ap.add_argument("--scenarios", type=int, default=1000)
    ap.add_argument("--elements", type=int, default=30)
    ap.add_argument("--robots", type=int, default=4)
    ap.add_argument("--kinds", choices=("families", "all", *groups), default="families")
    ap.add_argument("--start", type=int, default=0)
    args = ap.parse_args()
    runs = groups if args.kinds == "families" else {"all": all_kinds()} if args.kinds == "all" else \
        {args.kinds: groups[args.kinds]}
    bad = sum(run_family(name, kinds, args) for name, kinds in runs.items())
    print(f"in all: {bad} differ")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
