"""Play recorded ``simulate`` documents in a fresh process and print each result as JSON, one a line: the
suite runs this under several ``PYTHONHASHSEED`` values and compares the bytes (issue 44: no set's iteration,
so no hash seed, may decide an outcome or an event's order).

    PYTHONHASHSEED=1 python -m tests.engine.hashseed docs.jsonl
"""

from __future__ import annotations

import json
import sys

from referee.boards.scenario import ScenarioError, simulate

#: the hash seeds the suite plays the scenarios under
SEEDS = ("0", "1", "12345")


def main(path: str) -> None:
    out = sys.stdout
    with open(path, encoding="utf-8") as docs:
        for line in docs:
            try:
                result = simulate(json.loads(line))
            except ScenarioError as exc:
                result = {"error": str(exc)}
            out.write(json.dumps(result, sort_keys=True, default=str) + "\n")


if __name__ == "__main__":
    main(sys.argv[1])
