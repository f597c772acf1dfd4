"""The reply corpus (issue 30): the share of player replies read and answered right.

    PYTHONPATH=$PWD .venv/bin/python benchmarks/reply_corpus.py [--per-game 3] [--show 20]

Every client shape (Gmail, Outlook desktop, web, iOS and Android, Apple Mail format=flowed, iPhone,
Thunderbird, Roundcube, K-9, FairEmail, mutt) in every attribution language (en, de, fr, nl, es, it, pl,
sv) plays a fresh game in a new SQLite file: a mistake, a first program, then ``--per-game`` situations
drawn in rotation from what is written (orders, orders typed into the quoted form, thanks, HELP,
STATUS, PREVIEW, HINT, CARDS, a repeat, an option order, a GM block, a forgery, a mistake, a question)
x what is quoted (the turn mail, an echo, an error answer, a HELP answer). Each situation is judged by
the program on file afterwards and the one answer it got (kind and subject). Prints the share right
(goal: 100 %) and the situations that were not, with what came of them. The builders and the
expectations are tests/corpus/ (the same corpus tests/corpus/test_reply_corpus.py runs).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from referee.store import Store
from tests.corpus import situations as corpus


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--per-game", type=int, default=3)
    parser.add_argument("--show", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{tmp}/corpus.sqlite3"
        with Store(url) as store:
            store.upgrade()
            start = time.perf_counter()
            results = corpus.run(store, corpus.settings_for(url), per_game=args.per_game)
            took = time.perf_counter() - start
    right = sum(r.ok for r in results)
    print(f"{len(results)} reply situations, {right} right: {100 * right / len(results):.1f} % "
          f"({took:.1f} s, {1000 * took / len(results):.0f} ms a mail)")
    for field in ("client", "lang", "written", "quoted"):
        counts = Counter(getattr(r, field) for r in results)
        print(f"  by {field}: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    for r in [r for r in results if not r.ok][:args.show]:
        print(f"WRONG {r.name}: want {r.answer} with {r.program}; got {r.got}")


if __name__ == "__main__":
    main()
