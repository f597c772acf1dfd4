"""What the referee writes in mails speaks to players and GMs, who have no shell, no checkout and no tracker
(issue 43): no command of the operator's shell, no file of the docs, no issue number."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: the words a mail must not point at
POINTERS = re.compile(r"referee game list|docs/players\.md|\bissue \d+")
#: modules whose strings go into mails (the command line's own texts are for the operator)
MAIL_PARTS = ("messages", "orders", "gm", "intake", "games", "reports", "mailer", "cron", "store")


def strings_outside_docstrings(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text())
    docs = {id(node.body[0].value) for node in ast.walk(tree)
            if isinstance(node, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) and node.body
            and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
    return [(node.lineno, node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs]


def test_no_mail_text_points_at_the_shell_the_docs_or_the_tracker():
    found = [f"{path.relative_to(ROOT)}:{line}: {text[:80]!r}"
             for part in MAIL_PARTS for path in sorted((ROOT / "referee" / part).rglob("*.py"))
             for line, text in strings_outside_docstrings(path) if POINTERS.search(text)]
    found += [f"{path.relative_to(ROOT)}: {m.group(0)}" for path in sorted((ROOT / "templates").iterdir())
              if path.is_file() for m in POINTERS.finditer(path.read_text())]
    assert found == []
