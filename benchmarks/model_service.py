"""A long run of the model-based test of the whole service (``tests/model/machine.py``, issue 41).

    .venv/bin/python benchmarks/model_service.py [--examples 2000] [--minutes 30] [--steps 40] [--seed N]

Runs the state machine with random (not derandomized) examples until ``--examples`` ran or ``--minutes``
passed, on fresh SQLite files under /dev/shm (a memory file system). Unlike the test, a broken promise does
not stop the run: each is counted once per example in which it broke, with the first story that broke it
(the mails written, the clock jumps and the ticks). Prints the examples and steps run, their time, and
every broken promise; exit status 1 if any promise broke.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
import traceback
import uuid
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hypothesis import HealthCheck, Phase, seed, settings
from hypothesis.stateful import run_state_machine_as_test

from referee.store import Store
from tests.model.machine import ServiceMachine


class _Stop(Exception):
    """The time is up."""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--examples", type=int, default=2000)
    parser.add_argument("--minutes", type=float, default=30.0)
    parser.add_argument("--steps", type=int, default=40, help="rules at most per example")
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args()

    base = Path("/dev/shm") if Path("/dev/shm").is_dir() else Path(tempfile.gettempdir())
    work = Path(tempfile.mkdtemp(prefix="referee-model-", dir=base))
    template = work / "template.sqlite3"
    with Store(f"sqlite:///{template}") as store:
        store.upgrade()

    broken: dict[str, list[object]] = {}
    counts = {"examples": 0, "steps": 0}
    started = time.monotonic()
    stop_at = started + args.minutes * 60

    def fresh() -> tuple[str, Callable[[], None]]:
        if time.monotonic() > stop_at:
            raise _Stop
        counts["examples"] += 1
        path = work / f"{uuid.uuid4().hex[:8]}.sqlite3"
        shutil.copy(template, path)
        return f"sqlite:///{path}", lambda: path.unlink(missing_ok=True)

    class Counted(ServiceMachine):
        databases = staticmethod(fresh)

        def teardown(self) -> None:
            counts["steps"] += len(self.world.log) if self.world is not None else 0
            super().teardown()

    Counted.broken = broken
    stopped = "all examples ran"
    chunk, rounds = 10, 0
    try:
        while counts["examples"] < args.examples:
            # chunks of examples, each with its own seed: an error in a step ends its chunk, not the run
            run = settings(max_examples=min(chunk, args.examples - counts["examples"]),
                           stateful_step_count=args.steps, deadline=None, database=None, phases=[Phase.generate],
                           suppress_health_check=list(HealthCheck), report_multiple_bugs=False)
            try:
                chunk_seed = (args.seed or 0) * 100_003 + rounds
                seed(chunk_seed)(lambda r=run: run_state_machine_as_test(Counted, settings=r))()
            except _Stop:
                raise
            except Exception as exc:   # an error of the service (or of the machine) in a step
                cause = exc.__cause__ or exc.__context__ or exc
                if isinstance(cause, _Stop):
                    raise _Stop from None
                name = f"error in a step: {type(cause).__name__}"
                where = "".join(traceback.format_exception(cause)[-4:])
                seen = broken.setdefault(name, [0, f"{where[-3000:]}\n  (chunk seed {chunk_seed})"])
                seen[0] = int(str(seen[0])) + 1
            rounds += 1
    except _Stop:
        stopped = f"--minutes {args.minutes:g} reached"
    finally:
        shutil.rmtree(work, ignore_errors=True)
    seconds = time.monotonic() - started
    print(f"model_service: {counts['examples']} examples, {counts['steps']} steps (mails, jumps, ticks) in "
          f"{seconds:.0f} s ({counts['steps'] / max(seconds, 1e-9):.1f} steps/s); {stopped}")
    if not broken:
        print("every promise held")
        return 0
    for name, (times, first) in sorted(broken.items()):
        print(f"\nBROKEN: {name}, in {times} of {counts['examples']} examples; the first:\n  {first}")
    return 1


if __name__ == "__main__":
    sys.exit(main())
