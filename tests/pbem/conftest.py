"""Builders for PBEM-element scenarios: a small board, robots, programs, then what must hold."""

from __future__ import annotations

from typing import Any

import pytest

from referee.scenario import simulate

#: filler cards so every robot has a full program (priorities low enough to act last)
FILLER = ["UTRN 10", "UTRN 20", "UTRN 30", "UTRN 40", "UTRN 50", "UTRN 60"]


class Play:
    """The result of one scenario, with lookups that keep the tests short."""

    def __init__(self, result: dict[str, Any]) -> None:
        self.result = result
        self.robots = {r["name"]: r for r in result["robots"]}
        self.events = result["events"]

    def at(self, name: str) -> str | None:
        return self.robots[name]["at"]

    def damage(self, name: str) -> int:
        return self.robots[name]["damage"]

    def texts(self, name: str, phase: int | str | None = None, lasers: bool = False) -> list[str]:
        """What the log says of one robot (leaving out its own laser fire unless ``lasers``)."""
        return [e["text"] for e in self.events
                if e["robot"] == name and (phase is None or e["phase"] == phase)
                and (lasers or e["step"] != "lasers" or "HP" in e["text"] or e["text"] == "destroyed")]


def play(elements: list[dict[str, Any]], robots: list[dict[str, Any]], programs: dict[str, list[str]],
         *, width: int = 8, height: int = 8, phases: int = 1, rules: dict[str, Any] | None = None,
         seed: int | str = 0) -> Play:
    """Run a scenario; programs may be shorter than ``phases``... they are padded with harmless U-turns."""
    used = {c for cards in programs.values() for c in cards}
    spare = [c for c in FILLER if c not in used]
    full = {}
    for name, cards in programs.items():
        cards = list(cards)
        while len(cards) < 5:
            cards.append(spare.pop(0) if spare else "LF90 410")
        full[name] = cards
    scenario: dict[str, Any] = {
        "board": {"width": width, "height": height, "elements": elements},
        "robots": robots, "programs": full, "phases": phases, "seed": seed,
    }
    if rules:
        scenario["rules"] = rules
    return Play(simulate(scenario))


def robot(name: str, at: str, facing: str = "N", **extra: Any) -> dict[str, Any]:
    return {"name": name, "at": at, "facing": facing, **extra}


def rows(kind: str, first: int, last: int, width: int = 8, **fields: Any) -> list[dict[str, Any]]:
    """One element run per row from ``first`` to ``last``: a rectangle of level, water..."""
    return [{"kind": kind, "at": f"r{r}c1-r{r}c{width}", **fields} for r in range(first, last + 1)]


@pytest.fixture
def plateau() -> list[dict[str, Any]]:
    """An 8x8 board whose rows 5-8 stand one level up, with a ramp at r4c2 climbing north."""
    return [*rows("level", 5, 8, height=1), {"kind": "ramp", "at": "r4c2", "dir": "N"}]
