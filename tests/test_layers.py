"""The layers of the project, as one ``import-linter`` layers contract in pyproject.toml (written from
docs/architecture.md): engine < orders < store < games < front ends, the small helpers just above the engine.
``lint-imports`` reads every import, also those inside functions, and follows chains through other modules."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import grimp

from tests.servers.processes import patience

ROOT = Path(__file__).resolve().parents[1]
LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"


def _config() -> dict[str, object]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]  # type: ignore[no-any-return]


def _layers() -> list[list[str]]:
    contracts = _config()["contracts"]
    assert isinstance(contracts, list)
    layers = [c for c in contracts if c["type"] == "layers"]
    assert len(layers) == 1, "the layers are one contract"
    return [[m.strip() for m in re.split(r"[|:]", layer)] for layer in layers[0]["layers"]]


def test_every_layer_contract_is_kept() -> None:
    done = subprocess.run([str(LINT_IMPORTS), "--no-cache"], cwd=ROOT, capture_output=True, text=True,
                          timeout=patience(300))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout


def test_the_contract_ignores_no_import() -> None:
    for contract in _config()["contracts"]:  # type: ignore[attr-defined]
        assert not contract.get("ignore_imports"), contract["id"]


def test_the_layers_go_engine_orders_store_games_front_ends() -> None:
    order = {module: i for i, layer in enumerate(_layers()) for module in layer}
    # top layer first: a front end above the application, above the store, above the orders, above the engine
    for front_end in ("referee.cli", "referee.cron", "referee.intake", "referee.gm"):
        assert order[front_end] < order["referee.games"]
    assert order["referee.games"] < order["referee.store"] < order["referee.orders"] < order["referee.engine"]
    assert order["referee.engine"] == max(order.values()) > order["referee.common"]  # the engine imports nothing


def test_every_part_of_the_project_is_in_a_layer() -> None:
    """A new top-level module or package of ``referee`` is placed in a layer from the day it is added (the engine
    may import none of it)."""
    package = ROOT / "referee"
    parts = {f"referee.{p.stem}" for p in package.glob("*.py") if p.stem != "__init__"}
    parts |= {f"referee.{p.name}" for p in package.iterdir() if (p / "__init__.py").is_file()}
    parts -= {"referee._data"}
    placed = {module for layer in _layers() for module in layer}
    assert parts - placed == set(), "add these to a layer of the contract in pyproject.toml"
    assert placed - parts == set(), "these are no longer parts of referee: remove them from the contract"


def test_the_package_root_holds_only_packages() -> None:
    """The folder layout shows the layers: every module lives in the package of what it serves."""
    loose = sorted(p.name for p in (ROOT / "referee").glob("*.py") if p.name != "__init__.py")
    assert loose == []


# -- no import cycles, no borrowed private names (issue 45) ----------------------------------------------------------
def _graph() -> grimp.ImportGraph:
    # imports under ``if TYPE_CHECKING:`` count too: a type taken from a module that imports this one is a cycle all
    # the same (the lower module declares what it needs, e.g. as a Protocol)
    return grimp.build_graph("referee", exclude_type_checking_imports=False, cache_dir=None)


def _cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    """The groups of modules that import each other, directly or round a chain (imports inside functions too)."""
    found: list[list[str]] = []
    for module in sorted(graph.modules):
        if any(module in group for group in found):
            continue
        back = {m for m in graph.find_upstream_modules(module)} & graph.find_downstream_modules(module)
        if back:
            found.append(sorted({module, *back}))
    return found


def test_no_module_imports_one_that_imports_it_back() -> None:
    """A cycle hides which module is the lower one: the shared part belongs in a module both import."""
    graph = _graph()
    cycles = _cycles(graph)
    details = []
    for group in cycles:
        for a in group:
            for b in sorted(graph.find_modules_directly_imported_by(a) & set(group)):
                lines = graph.get_import_details(importer=a, imported=b)
                details += [f"{a}:{d['line_number']} imports {b}" for d in lines]
    assert cycles == [], "\n".join(details)


def test_no_module_imports_another_modules_private_names() -> None:
    """A name starting with ``_`` is its module's own: a second module that needs it needs a public name."""
    borrowed = []
    for path in sorted((ROOT / "referee").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                borrowed += [f"{path.relative_to(ROOT)}:{node.lineno}: {alias.name}" for alias in node.names
                             if alias.name.startswith("_") and not alias.name.startswith("__")]
    assert borrowed == []


def test_the_use_cases_write_no_sql_of_their_own():
    """``referee.games`` holds use cases: its questions to the database are functions of ``referee.store``
    (statements such as ``select`` and ``delete`` are built there only)."""
    statements = {"select", "delete", "update", "insert", "func", "text", "and_", "or_", "exists"}
    built = []
    for path in sorted((ROOT / "referee" / "games").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("sqlalchemy"):
                built += [f"{path.relative_to(ROOT)}:{node.lineno}: {a.name}" for a in node.names
                          if a.name in statements]
    assert built == []
