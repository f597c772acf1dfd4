"""Not a speed: does this engine, playing an older rules version, resolve turns exactly as the engine of
that version did? (Issue 33: turns stored under rules version 2 must replay exactly.)

    git archive <commit before the rules change> | tar -x -C /tmp/old
    PYTHONPATH=$PWD .venv/bin/python benchmarks/replay_old_rules.py --old-tree /tmp/old [--version 2]
        [--scenarios 400]

Makes random scenarios (``tests/engine/symmetry.py``: classic and extended elements, four robots), has the
old tree's ``referee.boards.scenario.simulate`` resolve them in a child process, resolves them here under
``Rules.for_version(version)`` and compares robots and the whole event log. Prints the scenarios that
differ and the count; with ``--version 3`` (this engine's rules) it counts how many the rule changes touch.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from referee.boards.scenario import parse_scenario, robot_result
from referee.engine import resolve_turn
from referee.engine.decisions import DECISION
from tests.engine.symmetry import random_scenario

OLD_RUN = """
import json, sys
from referee.boards.scenario import simulate
out = []
for doc in json.load(open(sys.argv[1])):
    try:
        out.append(simulate(doc))
    except Exception as exc:
        out.append({"error": str(exc)})
json.dump(out, open(sys.argv[2], "w"))
"""


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--old-tree", required=True)
    ap.add_argument("--version", type=int, default=2)
    ap.add_argument("--scenarios", type=int, default=400)
    args = ap.parse_args()
    docs = [random_scenario(random.Random(f"replay:{n}"), elements=30) for n in range(args.scenarios)]
    with tempfile.TemporaryDirectory(prefix="replay-old-") as tmp:
        given, taken = Path(tmp) / "docs.json", Path(tmp) / "old.json"
        given.write_text(json.dumps(docs))
        env = {**os.environ, "PYTHONPATH": str(Path(args.old_tree).resolve())}
        subprocess.run([sys.executable, "-c", OLD_RUN, str(given), str(taken)], env=env, check=True,
                       cwd=args.old_tree)
        old = json.loads(taken.read_text())
    differ = skipped = 0
    for n, (doc, then) in enumerate(zip(docs, old, strict=True)):
        if "error" in then:
            skipped += 1
            continue
        a = parse_scenario(doc)
        now = resolve_turn(a["board"], a["robots"], a["programs"], rules=a["rules"].for_version(args.version),
                           seed=a["seed"], phases=a["phases"], reentry=a["reentry"], board_state=a["board_state"],
                           answers=a["answers"], option_deck=a["option_deck"])
        events = [e.to_dict() for e in now.events if e.kind != DECISION]
        if [robot_result(r) for r in now.robots] != then["robots"] or events != then["events"]:
            differ += 1
            print(f"scenario replay:{n} differs", flush=True)
    print(f"{args.scenarios - skipped} scenarios under rules version {args.version}: {differ} differ from the old "
          f"tree ({skipped} the old tree refused)")


if __name__ == "__main__":
    main()
