"""The autopilot's course map: measured by the engine, against read back from disk (referee.boards.coursemaps).

    .venv/bin/python benchmarks/bench_coursemap.py [--courses sprint,grand-prix] [--runs 3]

For each course, on a board built anew each run (as in a new process): the time to measure the map
(``CourseMap(board)``: every square, facing and card type stepped) and the time to read it from the
file :func:`referee.boards.coursemaps.cached_course_map` wrote, plus the file's size. Wall and CPU, medians.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from referee.autopilot import CourseMap
from referee.boards import board_spec
from referee.boards.coursemaps import cached_course_map
from referee.engine import build_board


def timed(fn) -> tuple[float, float]:  # type: ignore[no-untyped-def]
    w, c = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - w, time.process_time() - c


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--courses", default="sprint,grand-prix")
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-coursemap-") as tmp:
        for name in args.courses.split(","):
            spec = board_spec(name)
            measure = [timed(lambda spec=spec, name=name: CourseMap(build_board(spec, name))) for _ in range(args.runs)]
            where = Path(tmp) / name
            cached_course_map(build_board(spec, name), where)
            read = [timed(lambda spec=spec, name=name, where=where: cached_course_map(build_board(spec, name), where))
                    for _ in range(args.runs)]
            size = sum(p.stat().st_size for p in where.glob("*.json"))
            print(f"{name}: measured {statistics.median(w for w, _ in measure):.2f} s wall, "
                  f"{statistics.median(c for _, c in measure):.2f} s CPU; read from disk "
                  f"{statistics.median(w for w, _ in read) * 1e3:.0f} ms wall, "
                  f"{statistics.median(c for _, c in read) * 1e3:.0f} ms CPU (board build included); "
                  f"file {size / 1024:.0f} KB")


if __name__ == "__main__":
    main()
