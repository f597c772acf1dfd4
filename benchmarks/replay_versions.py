"""Turns played under an older rules version replay exactly (issue 44): random scenarios of every registered
kind, played by another checkout (the release before, say) and by this one under ``Rules.for_version(V)``, must
come out the same: every robot, the winner, the board state, and the events of each moment (phase and step;
their order within one moment may differ below version 4, where a set's iteration could choose it).

    PYTHONPATH=$PWD .venv/bin/python benchmarks/replay_versions.py --against /path/to/old/checkout \\
        [--version 3] [--scenarios 400] [--against-version 3]

The old checkout must be importable by this venv's Python (the same dependencies). Prints the count of
scenarios that differ (with their seeds) and exits 1 if any does.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

PLAY = r'''
import json, sys
tree, version, docs = sys.argv[1], int(sys.argv[2]), sys.argv[3]
sys.path.insert(0, tree)
import referee
assert referee.__file__.startswith(tree), referee.__file__
from referee.boards import scenario as sc
from referee.engine import resolve_turn
for line in open(docs):
    try:
        args = sc.parse_scenario(json.loads(line))
    except sc.ScenarioError as exc:
        print(json.dumps({"refused": str(exc)}))
        continue
    rules = args["rules"] if version == 0 else args["rules"].for_version(version)
    r = resolve_turn(args["board"], args["robots"], args["programs"], rules=rules, seed=args["seed"],
                     phases=args["phases"], reentry=args["reentry"], board_state=args["board_state"],
                     answers=args["answers"], option_deck=args["option_deck"])
    moments = {}
    for e in r.events:
        d = e.to_dict()
        moments.setdefault(f"{d.get('phase')}/{d.get('step')}", []).append(json.dumps(d, sort_keys=True))
    print(json.dumps({"robots": [sc.robot_result(x) for x in r.robots], "winner": r.winner,
                      "events": {k: sorted(v) for k, v in moments.items()},
                      "board": r.board_state.to_dict() if r.board_state else None}, sort_keys=True, default=str))
'''


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--against", required=True, help="the old checkout (its engine plays as written)")
    ap.add_argument("--version", type=int, default=3, help="the rules version the old checkout played")
    ap.add_argument("--scenarios", type=int, default=400)
    ap.add_argument("--against-version", type=int, default=0,
                    help="the old checkout plays under Rules.for_version(this) too (0: as written); a refactoring "
                         "of the engine is checked so against the checkout before it, version by version")
    args = ap.parse_args()
    sys.path.insert(0, str(ROOT))
    from tests.engine.symmetry import all_kinds, random_scenario

    with tempfile.TemporaryDirectory() as tmp:
        docs = Path(tmp) / "docs.jsonl"
        docs.write_text("".join(json.dumps(random_scenario(random.Random(f"replay:{i}"), kinds=all_kinds(),
                                                           elements=24, robots=4)) + "\n"
                                for i in range(args.scenarios)))
        old, new = (subprocess.run([sys.executable, "-c", PLAY, tree, str(version), str(docs)], check=True,
                                   capture_output=True, text=True).stdout.splitlines()
                    for tree, version in ((str(Path(args.against).resolve()), args.against_version),
                                          (str(ROOT), args.version)))
    refused = sum(1 for line in old if '"refused"' in line)
    differ = [i for i, (a, b) in enumerate(zip(old, new, strict=True)) if a != b and '"refused"' not in a]
    for i in differ:
        print(f"scenario replay:{i} differs")
    print(f"{args.scenarios} scenarios ({refused} refused by the old checkout): {len(differ)} differ under "
          f"Rules.for_version({args.version})")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
