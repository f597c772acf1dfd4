"""Fixtures shared by the engine's tests, and the hash-seed check: every document a test here gives
``simulate`` is played again in fresh processes under ``PYTHONHASHSEED`` 0, 1 and 12345, and the outputs must
be the same bytes (issue 44)."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import referee.boards.scenario as scenario_module
from referee.engine import KINDS
from referee.engine.hooks import EFFECTS

from .hashseed import SEEDS

ROOT = Path(__file__).resolve().parents[2]

#: the documents the tests of this process gave ``simulate`` (as JSON), to play under other hash seeds
PLAYED: list[str] = []


def _recording(simulate: Callable[[dict[str, Any]], dict[str, Any]]) -> Callable[[dict[str, Any]], dict[str, Any]]:
    def recorded(doc: dict[str, Any]) -> dict[str, Any]:
        with contextlib.suppress(TypeError, ValueError):  # a document no JSON holds is no scenario a file gives
            PLAYED.append(json.dumps(doc))
        return simulate(doc)
    recorded.__doc__ = simulate.__doc__
    return recorded


# before the test modules import it (``from referee.boards.scenario import simulate``)
if not hasattr(scenario_module.simulate, "__wrapped_for_hash_seeds__"):
    scenario_module.simulate = _recording(scenario_module.simulate)
    scenario_module.simulate.__wrapped_for_hash_seeds__ = True  # type: ignore[attr-defined]


@pytest.fixture(scope="session", autouse=True)
def same_bytes_under_every_hash_seed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """After this process's engine tests: their ``simulate`` documents, played under each of :data:`SEEDS`
    in a fresh process, give the same bytes (a failure here is reported as an error at teardown)."""
    yield
    if not PLAYED or os.environ.get("REFEREE_SKIP_HASH_SEEDS"):
        return
    docs = tmp_path_factory.mktemp("hashseed") / "docs.jsonl"
    played = list(dict.fromkeys(PLAYED))  # each document once
    docs.write_text("".join(doc + "\n" for doc in played), encoding="utf-8")
    runs = {seed: subprocess.Popen([sys.executable, "-m", "tests.engine.hashseed", str(docs)], cwd=ROOT,
                                   env={**os.environ, "PYTHONHASHSEED": seed}, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE) for seed in SEEDS}
    outputs = {}
    for seed, run in runs.items():
        out, err = run.communicate(timeout=600)
        assert run.returncode == 0, err.decode(errors="replace")[-2000:]
        outputs[seed] = out
    first = outputs[SEEDS[0]]
    for seed in SEEDS[1:]:
        if outputs[seed] != first:
            lines = zip(first.splitlines(), outputs[seed].splitlines(), played, strict=False)
            doc = next(d for a, b, d in lines if a != b)
            raise AssertionError(f"PYTHONHASHSEED {SEEDS[0]} and {seed} play this scenario differently: {doc}")


@pytest.fixture
def scratch() -> Iterator[list[str]]:
    """Names of kinds and effects a test registers; removed again afterwards."""
    names: list[str] = []
    yield names
    for name in names:
        KINDS.pop(name, None)
        EFFECTS.pop(name, None)
