"""No set's iteration order, and no object identity, decides anything in the engine (issue 44): a set iterates
in an order the process's hash seed chooses for strings, so a loop over one that logs, moves or damages would
make a turn come out differently in another process. This lint reads the engine's source and finds every loop
or comprehension over a value the same function made as a set (a set display or comprehension, ``set()``,
``frozenset()``, a set annotation, or a union or difference of such), every ``next(iter(...))`` of one, and every
``id(...)``. A loop whose order cannot matter says why on its line with ``# order-free: <why>``; ``sorted(...)``
gives any set an order. The suite also plays its scenarios under three hash seeds and compares the bytes
(``tests/engine/conftest.py``).

Rulings cited (docs/rulings.md): 44.2.
"""

from __future__ import annotations

import ast
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "referee" / "engine"


def set_attributes(sources: list[str]) -> frozenset[str]:
    """The attribute names the engine's classes annotate as sets (``Robot.statuses``, ``Board.squares``...)."""
    names = set()
    for source in sources:
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.ClassDef):
                for item in node.body:
                    if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name) \
                            and _annotated_set(item.annotation):
                        names.add(item.target.id)
            if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Attribute) \
                    and _annotated_set(node.annotation):
                names.add(node.target.attr)
    return frozenset(names)


#: filled by :func:`set_orders`'s caller: attribute names that hold sets
SET_ATTRIBUTES: set[str] = set()


def _is_set_expr(node: ast.AST, sets: set[str]) -> bool:
    if isinstance(node, ast.Attribute) and node.attr in SET_ATTRIBUTES:
        return True
    if isinstance(node, (ast.Set, ast.SetComp)):
        return True
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("set", "frozenset"):
        return True
    if isinstance(node, ast.Name):
        return node.id in sets
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.BitOr, ast.Sub, ast.BitAnd, ast.BitXor)):
        return _is_set_expr(node.left, sets) or _is_set_expr(node.right, sets)
    return False


def _annotated_set(annotation: ast.AST | None) -> bool:
    text = ast.unparse(annotation) if annotation is not None else ""
    return text.startswith(("set[", "frozenset[", "set", "frozenset")) and not text.startswith("settings")


class _Finder(ast.NodeVisitor):
    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.found: list[tuple[int, str]] = []
        self.scopes: list[set[str]] = [set()]

    def _sets(self) -> set[str]:
        return self.scopes[-1]

    def _flag(self, node: ast.AST, what: str) -> None:
        line = getattr(node, "lineno", 0)
        if "order-free:" not in self.lines[line - 1]:
            self.found.append((line, what))

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self.scopes.append({a.arg for a in [*node.args.args, *node.args.kwonlyargs] if _annotated_set(a.annotation)})
        self.generic_visit(node)
        self.scopes.pop()

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_Assign(self, node: ast.Assign) -> None:
        for target in node.targets:
            if isinstance(target, ast.Name):
                (self._sets().add if _is_set_expr(node.value, self._sets()) else self._sets().discard)(target.id)
        self.generic_visit(node)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if isinstance(node.target, ast.Name) and (_annotated_set(node.annotation)
                                                  or (node.value is not None and _is_set_expr(node.value,
                                                                                              self._sets()))):
            self._sets().add(node.target.id)
        self.generic_visit(node)

    def visit_For(self, node: ast.For) -> None:
        if _is_set_expr(node.iter, self._sets()):
            self._flag(node, f"for loop over a set: {ast.unparse(node.iter)}")
        self.generic_visit(node)

    def visit_comprehension(self, node: ast.comprehension) -> None:
        if _is_set_expr(node.iter, self._sets()):
            self._flag(node.iter, f"comprehension over a set: {ast.unparse(node.iter)}")
        self.generic_visit(node)

    def visit_SetComp(self, node: ast.SetComp) -> None:  # a set made from a set has no order to lose
        for gen in node.generators:
            for cond in gen.ifs:
                self.visit(cond)
        self.visit(node.elt)

    def visit_Call(self, node: ast.Call) -> None:
        if isinstance(node.func, ast.Name) and node.func.id == "id":
            self._flag(node, "id(...): an object's identity")
        if (isinstance(node.func, ast.Name) and node.func.id == "next" and node.args
                and isinstance(node.args[0], ast.Call) and isinstance(node.args[0].func, ast.Name)
                and node.args[0].func.id == "iter" and node.args[0].args
                and _is_set_expr(node.args[0].args[0], self._sets())):
            self._flag(node, f"next(iter(...)) of a set: {ast.unparse(node.args[0].args[0])}")
        if isinstance(node.func, ast.Name) and node.func.id in ("sorted", "len", "any", "all", "sum", "min", "max",
                                                                "set", "frozenset"):
            for arg in node.args:  # these give a set an order, or need none
                if isinstance(arg, ast.GeneratorExp):
                    for gen in arg.generators:
                        for cond in gen.ifs:
                            self.visit(cond)
                    self.visit(arg.elt)
                else:
                    self.visit(arg)
            for kw in node.keywords:
                self.visit(kw)
            return
        self.generic_visit(node)


def set_orders(source: str) -> list[tuple[int, str]]:
    """The places in ``source`` where a set's iteration order or an object's identity could decide."""
    finder = _Finder(source.splitlines())
    finder.visit(ast.parse(source))
    return finder.found


def test_no_set_iteration_or_object_identity_decides_anything_in_the_engine():
    SET_ATTRIBUTES.update(set_attributes([path.read_text() for path in ENGINE.rglob("*.py")]))
    found = [f"{path.relative_to(ENGINE.parents[1])}:{line}: {what}"
             for path in sorted(ENGINE.rglob("*.py")) for line, what in set_orders(path.read_text())]
    assert found == [], "give the set an order (sorted, or the robots' list) or say why none is needed:\n" + \
        "\n".join(found)


def test_the_lint_finds_a_loop_over_a_set_and_accepts_a_sorted_one_or_a_reason():
    bad = "def f(names):\n    stay = {n for n in names}\n    for n in stay:\n        print(n)\n"
    assert [line for line, _ in set_orders(bad)] == [3]
    assert set_orders(bad.replace("for n in stay:", "for n in sorted(stay):")) == []
    assert set_orders(bad.replace("for n in stay:", "for n in stay:  # order-free: counting only")) == []
    assert [line for line, _ in set_orders("def g(a: set[str]):\n    return [x for x in a]\n")] == [2]
    assert [line for line, _ in set_orders("def h(r):\n    return id(r)\n")] == [2]
