"""The layers of the project, as ``import-linter`` contracts in pyproject.toml: the engine imports nothing of
the project outside ``referee.engine``, the store imports none of the parts above it, the orders language
does not reach the store. ``lint-imports`` reads every import, also those inside functions."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"


def _contracts() -> dict[str, dict[str, object]]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    return {c["id"]: c for c in config["contracts"]}


def test_every_layer_contract_is_kept() -> None:
    done = subprocess.run([str(LINT_IMPORTS), "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout


def test_the_engine_contract_names_every_other_part_of_the_project() -> None:
    """A new top-level module or package of ``referee`` is forbidden to the engine from the day it is added."""
    package = ROOT / "referee"
    parts = {f"referee.{p.stem}" for p in package.glob("*.py") if p.stem != "__init__"}
    parts |= {f"referee.{p.name}" for p in package.iterdir() if (p / "__init__.py").is_file()}
    parts -= {"referee.engine", "referee._data"}
    forbidden = set(_contracts()["engine-pure"]["forbidden_modules"])  # type: ignore[arg-type]
    assert parts - forbidden == set(), "add these to the engine-pure contract in pyproject.toml"
    assert forbidden - parts == set(), "these are no longer parts of referee: remove them from engine-pure"
