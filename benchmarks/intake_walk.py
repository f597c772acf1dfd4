"""The walk of one order mail through the code: how often it climbs back up a layer, how often it comes back
to a module it had left (issue 34: the intake should be one way: read, one use case, one answer).

    PYTHONPATH=$PWD .venv/bin/python benchmarks/intake_walk.py [--mail orders|preview|help] [--show 40]

A game is started on SQLite (as the reply corpus does: ``tests/corpus``), and Alice's reply to the turn mail
(a Gmail reply with her program, her program and PREVIEW, or HELP) is stored; then only the processing of that one mail
(:func:`referee.intake.process.process_pending`: screening, routing, the orders, the answer queued) runs
under :func:`sys.setprofile`. Every Python call and return of a ``referee.*`` function moves "where the
mail is": the module of the innermost ``referee`` frame (library code, SQLAlchemy..., counts as the module
that called it). Consecutive repeats are one place, so the walk is the list of modules the mail passes
through, in order. Each module belongs to a layer of the import-linter contract in pyproject.toml (the
layers of docs/architecture.md: cli, ..., intake, gm, ..., games, ..., store, orders, helpers, engine).

Counted:

- **climbs**: moves of the walk from a module of a lower layer to one of a higher layer (the stack coming
  back up: a return, or a call made upward through a callback);
- **returns**: moves of the walk into a module it had been in before and left (back to a room it left);
- **intake comebacks**: how many separate times the walk comes back up into ``referee.intake`` from below
  (each is one more trip down from the front end: one way is read, one use case, one answer);
- the same walk by package (the contract's units: ``referee.intake``, ``referee.games``,
  ``referee.store``, ``referee.orders``, ``referee.engine``, each helper module...): its length and its
  returns to a package it had left;
- the calls down across a layer, and the modules visited.

Compare two versions of the code by running this with each on PYTHONPATH.
"""

from __future__ import annotations

import argparse
import itertools
import re
import sys
import tempfile
import tomllib
from collections import Counter
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from types import FrameType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from referee.intake.process import process_pending, referee_gm_handler  # noqa: E402
from referee.store import Store  # noqa: E402
from referee.store.incoming_batch import record_batch  # noqa: E402
from tests.corpus import situations as corpus  # noqa: E402
from tests.corpus.clients import LANGS, build  # noqa: E402
from tests.intake.helpers import address  # noqa: E402


def layers() -> list[list[str]]:
    """The layers of the import-linter contract (pyproject.toml of the code on PYTHONPATH), top first."""
    import referee

    pyproject = Path(referee.__file__).resolve().parent.parent / "pyproject.toml"
    config = tomllib.loads(pyproject.read_text())
    contract = next(c for c in config["tool"]["importlinter"]["contracts"] if c["type"] == "layers")
    return [[m.strip() for m in re.split(r"[|:]", layer) if m.strip()] for layer in contract["layers"]]


class Places:
    """The layer (0: the top) and the package (the contract's unit) of each module."""

    def __init__(self) -> None:
        self.units = {unit: rank for rank, layer in enumerate(layers()) for unit in layer}
        self.cache: dict[str, tuple[int, str]] = {}

    def of(self, module: str) -> tuple[int, str]:
        found = self.cache.get(module)
        if found is None:
            parts = module.split(".")
            unit = next((".".join(parts[:n]) for n in range(len(parts), 0, -1) if ".".join(parts[:n]) in self.units),
                        module)
            found = self.cache[module] = (self.units.get(unit, len(self.units)), unit)
        return found


def _module(frame: FrameType | None) -> str | None:
    """The module of the innermost ``referee`` frame from ``frame`` outward."""
    while frame is not None:
        name = frame.f_globals.get("__name__", "")
        if name == "referee" or name.startswith("referee."):
            return name
        frame = frame.f_back
    return None


def walk_of(run: Callable[[], Any]) -> list[str]:
    """The modules ``run`` passes through, in order, consecutive repeats made one."""
    walk: list[str] = []

    def profile(frame: FrameType, event: str, arg: object) -> None:
        if event == "call":
            where = _module(frame)
        elif event == "return":
            where = _module(frame.f_back)
        else:
            return
        if where is not None and (not walk or walk[-1] != where):
            walk.append(where)

    sys.setprofile(profile)
    try:
        run()
    finally:
        sys.setprofile(None)
    return walk


def measure(walk: list[str]) -> dict[str, Any]:
    places = Places()
    climbs = downs = comebacks = returns = 0
    landed: Counter[str] = Counter()
    seen: set[str] = set()
    for before, after in itertools.pairwise(walk):
        (rank_before, _), (rank_after, unit_after) = places.of(before), places.of(after)
        if rank_after < rank_before:
            climbs += 1
            landed[unit_after] += 1
            comebacks += unit_after == "referee.intake"
        elif rank_after > rank_before:
            downs += 1
        seen.add(before)
        if after in seen:
            returns += 1
    units = [places.of(m)[1] for m in walk]
    units = [u for i, u in enumerate(units) if i == 0 or units[i - 1] != u]
    unit_returns = sum(u in units[:i] for i, u in enumerate(units))
    return {"steps": len(walk), "modules": len(set(walk)), "climbs": climbs, "returns": returns,
            "intake comebacks": comebacks, "calls down": downs, "package steps": len(units),
            "package returns": unit_returns, "climbs by where they land": dict(landed.most_common())}


#: what Alice writes: first (to load every module and fill the caches), then in the mail walked
BODIES = {"orders": ("1, 2, 3, 4, 5", "5, 4, 3, 2, 1"), "preview": ("1, 2, 3, 4, 5\nPREVIEW", "5, 4, 3, 2, 1\nPREVIEW"),
          "help": ("HELP", "HELP")}


def one_mail(kind: str) -> list[str]:
    """Start a game, store Alice's reply to her turn mail, and walk its processing."""
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{tmp}/walk.sqlite3"
        with Store(url) as store:
            store.upgrade()
            settings = corpus.settings_for(url)
            table = corpus.Table(store, settings)
            code = table.game()
            row = table.latest(code, "turn_start")
            assert row is not None
            original = corpus._original(row)
            lang = next(x for x in LANGS if x.code == "en")
            walk: list[str] = []
            for n, body in enumerate(BODIES[kind], start=1):
                raw = build("gmail", lang, body, original, n=n, sender=address("alice"), to=original.reply_to)
                table.now += timedelta(minutes=10)
                with store.write() as s:
                    record_batch(s, [(None, raw, table.now)], source="maildir", mailbox="maildir:walk")
                walk = walk_of(lambda now=table.now: process_pending(store, settings, now=now,
                                                                     gm_handler=referee_gm_handler))
            return walk


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mail", choices=sorted(BODIES), default="orders")
    parser.add_argument("--show", type=int, default=0, help="print the first SHOW places of the walk")
    args = parser.parse_args()
    walk = one_mail(args.mail)
    for key, value in measure(walk).items():
        print(f"{key}: {value}")
    for where in walk[:args.show]:
        print("  ", where)


if __name__ == "__main__":
    main()
