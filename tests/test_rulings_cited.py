"""Every numbered ruling of docs/rulings.md is cited by number in some test file (issue 44): a test that
plays what the ruling says names it, ``ruling 14.2`` in a test or ``Rulings cited (docs/rulings.md): 14.2,
14.3.`` in a test module's docstring, so a ruling without a test shows here, and a reader of a ruling finds
its test with grep."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: a numbered ruling: ``12. A robot ...`` (the first rulings) or ``- **14.2 Oil ...`` (the later ones)
_NUMBERED = (re.compile(r"^(\d+)\. ", re.M), re.compile(r"^- \*\*(\d+\.[0-9a-z]+)\s", re.M))
#: a citation: ``ruling 14.2``, ``rulings 14.2 and 14.3``, ``Rulings cited (docs/rulings.md): 14.2, 14.3``
_CITED = re.compile(r"[Rr]ulings?(?: cited \(docs/rulings\.md\):)? ((?:\d+(?:\.[0-9a-z]+)?(?:, | and |\b))+)")


def ruling_numbers(text: str) -> list[str]:
    """The numbers of the rulings in the doc's rulings part (the house rules' table before it has none)."""
    body = text[text.index("## Rulings"):]
    return list(dict.fromkeys(m.group(1) for pattern in _NUMBERED for m in pattern.finditer(body)))


def cited(texts: list[str]) -> set[str]:
    return {n for text in texts for m in _CITED.finditer(text) for n in re.findall(r"\d+(?:\.[0-9a-z]+)?", m.group(1))}


def test_every_numbered_ruling_is_cited_by_a_test():
    numbers = ruling_numbers((ROOT / "docs" / "rulings.md").read_text())
    assert len(numbers) > 150
    found = cited([p.read_text() for p in (ROOT / "tests").rglob("test_*.py")])
    assert [n for n in numbers if n not in found] == [], "cite these rulings in the tests that play them"


def test_a_citation_is_read_in_each_way_it_is_written():
    assert cited(["ruling 14.2 and the rest", "Rulings 13.5 and 15.11", "Rulings cited (docs/rulings.md): 1, 16.m1."]) \
        == {"14.2", "13.5", "15.11", "1", "16.m1"}
