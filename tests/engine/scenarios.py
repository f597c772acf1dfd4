"""The one scenario harness of the engine's tests: a floor, its elements and robots in a few words.

A test writes the situation with these builders, resolves it through the public contract
(``referee.boards.scenario.simulate``) and asserts on the :class:`Outcome`. :func:`run` plays a whole turn
on an empty 12 x 12 floor; :func:`play` (the PBEM element tests) a few register phases on an 8 x 8
one, programs padded with harmless U-turns. Row 1 is the southern edge, column 1 the western one.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from referee.boards.scenario import simulate
from referee.engine import Board, build_board

Spec = dict[str, Any]


# -- board elements ---------------------------------------------------------------------------------
def element(kind: str, at: str, **fields: Any) -> Spec:
    """Any kind, its fields by name: ``element("oil", "r3c4")``, ``element("flamer", "r2c2", phases=[1])``."""
    return {"kind": kind, "at": at, **fields}


def wall(at: str, *sides: str) -> Spec:
    return {"kind": "wall", "at": at, "sides": list(sides)}


def pit(at: str) -> Spec:
    return {"kind": "pit", "at": at}


def belt(at: str, direction: str) -> Spec:
    return {"kind": "belt", "at": at, "dir": direction}


def express(at: str, direction: str) -> Spec:
    return {"kind": "express", "at": at, "dir": direction}


def pusher(at: str, direction: str, *phases: int) -> Spec:
    return {"kind": "pusher", "at": at, "dir": direction, "phases": list(phases)}


def gear(at: str, turn: str) -> Spec:
    return {"kind": "gear", "at": at, "turn": turn}


def crusher(at: str, *phases: int) -> Spec:
    return {"kind": "crusher", "at": at, "phases": list(phases)}


def laser(at: str, direction: str, count: int = 1) -> Spec:
    return {"kind": "laser", "at": at, "dir": direction, "count": count}


def flag(at: str, number: int) -> Spec:
    return {"kind": "flag", "at": at, "number": number}


def repair(at: str, wrenches: int = 1) -> Spec:
    return {"kind": "repair", "at": at, "wrenches": wrenches}


# -- robots and scenarios ---------------------------------------------------------------------------
def bot(name: str, at: str | None, facing: str = "N", **fields: Any) -> Spec:
    """A robot of the scenario; ``fields`` are the optional keys (damage, lives, virtual...)."""
    return {"name": name, "at": at, "facing": facing, **fields}


def floor(elements: Iterable[Spec] = (), width: int = 12, height: int = 12) -> Spec:
    return {"width": width, "height": height, "elements": list(elements)}


def scenario(robots: list[Spec], programs: dict[str, list[str]] | None = None, elements: Iterable[Spec] = (), *,
             width: int = 12, height: int = 12, **top: Any) -> Spec:
    """A whole scenario document; ``top`` holds the other top-level keys (phases, rules, reentry...)."""
    doc: Spec = {"board": floor(elements, width, height), "robots": robots, "programs": programs or {}}
    doc.update(top)
    return doc


def run(robots: list[Spec], programs: dict[str, list[str]] | None = None, elements: Iterable[Spec] = (),
        **kw: Any) -> Outcome:
    """Build the scenario and resolve it through the public ``simulate`` contract."""
    return Outcome(simulate(scenario(robots, programs, elements, **kw)))


#: filler cards so every robot has a full program (priorities low enough to act last)
FILLER = ["UTRN 10", "UTRN 20", "UTRN 30", "UTRN 40", "UTRN 50", "UTRN 60"]


def play(elements: list[Spec], robots: list[Spec], programs: dict[str, list[str]], *, width: int = 8,
         height: int = 8, phases: int = 1, rules: dict[str, Any] | None = None, seed: int | str = 0) -> Outcome:
    """A few register phases on a small board; programs shorter than five are padded with U-turns.

    Its :meth:`Outcome.texts` leaves out a robot's own laser fire (the element tests look at moves)."""
    used = {c for cards in programs.values() for c in cards}
    spare = [c for c in FILLER if c not in used]
    full = {}
    for name, cards in programs.items():
        cards = list(cards)
        while len(cards) < 5:
            cards.append(spare.pop(0) if spare else "LF90 410")
        full[name] = cards
    top: Spec = {"phases": phases, "seed": seed}
    if rules:
        top["rules"] = rules
    return Outcome(simulate(scenario(robots, full, elements, width=width, height=height, **top)), own_fire=False)


robot = bot


def rows(kind: str, first: int, last: int, width: int = 8, **fields: Any) -> list[Spec]:
    """One element run per row from ``first`` to ``last``: a rectangle of level, water..."""
    return [{"kind": kind, "at": f"r{r}c1-r{r}c{width}", **fields} for r in range(first, last + 1)]


def engine_board(elements: Iterable[Spec] = (), width: int = 12, height: int = 12) -> Board:
    """The same floor as an engine ``Board``, for tests that drive ``resolve_turn`` directly."""
    return build_board(floor(elements, width, height))


# -- reading the result -----------------------------------------------------------------------------
@dataclass
class Outcome:
    """The result document of ``simulate`` with a few lookups."""

    doc: Spec
    #: whether :meth:`texts` includes a robot's own laser fire
    own_fire: bool = True

    @property
    def robots(self) -> dict[str, Spec]:
        return {r["name"]: r for r in self.doc["robots"]}

    def robot(self, name: str) -> Spec:
        for r in self.doc["robots"]:
            if r["name"] == name:
                return r
        raise KeyError(name)

    def at(self, name: str) -> str | None:
        return self.robot(name)["at"]

    def facing(self, name: str) -> str:
        return self.robot(name)["facing"]

    def damage(self, name: str) -> int:
        return self.robot(name)["damage"]

    @property
    def winner(self) -> str | None:
        return self.doc["winner"]

    def events(self, robot: str | None = None, *, phase: int | str | None = None, step: str | None = None,
               text: str | None = None) -> list[Spec]:
        """Events in log order, filtered by robot, phase, step and exact text."""
        return [e for e in self.doc["events"]
                if (robot is None or e["robot"] == robot)
                and (phase is None or e["phase"] == phase)
                and (step is None or e["step"] == step)
                and (text is None or e["text"] == text)]

    def texts(self, robot: str | None = None, phase: int | str | None = None, *, step: str | None = None) -> list[str]:
        """What the log says (of one robot, in one phase, in one step), in order."""
        return [e["text"] for e in self.events(robot, phase=phase, step=step)
                if self.own_fire or e["step"] != "lasers" or "HP" in e["text"] or e["text"] == "destroyed"]

    def ghost(self, owner: str, phase: int | str | None = None) -> list[Spec]:
        """What the ghost of ``owner`` did, in log order (logged as the ghost's: no robot, ``ghost`` its owner)."""
        return [e for e in self.events(None, phase=phase) if e["robot"] is None and e.get("ghost") == owner]

    def ghost_texts(self, owner: str, phase: int | str | None = None) -> list[str]:
        return [e["text"] for e in self.ghost(owner, phase)]

    def hits(self, robot: str, **filters: Any) -> list[Spec]:
        """The damage events (``-1 HP``, ``-2 HP``...) of one robot."""
        return [e for e in self.events(robot, **filters) if e["text"].startswith("-") and e["text"].endswith(" HP")]

    def phases_logged(self) -> set[int | str]:
        return {e["phase"] for e in self.doc["events"]}
