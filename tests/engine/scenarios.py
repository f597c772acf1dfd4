"""Builders for the engine's scenario tests: a floor, its elements and robots in a few words.

A test writes the situation with these builders, resolves it through the public contract
(``referee.scenario.simulate``) and asserts on the :class:`Outcome`. The default floor is an empty
12 x 12 board; row 1 is the southern edge, column 1 the western one.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from referee.engine import Board, build_board
from referee.scenario import simulate

Spec = dict[str, Any]


# -- board elements ---------------------------------------------------------------------------------
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


def engine_board(elements: Iterable[Spec] = (), width: int = 12, height: int = 12) -> Board:
    """The same floor as an engine ``Board``, for tests that drive ``resolve_turn`` directly."""
    return build_board(floor(elements, width, height))


# -- reading the result -----------------------------------------------------------------------------
@dataclass
class Outcome:
    """The result document of ``simulate`` with a few lookups."""

    doc: Spec

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

    def texts(self, robot: str | None = None, *, phase: int | str | None = None, step: str | None = None) -> list[str]:
        return [e["text"] for e in self.events(robot, phase=phase, step=step)]

    def hits(self, robot: str, **filters: Any) -> list[Spec]:
        """The damage events (``-1 HP``, ``-2 HP``...) of one robot."""
        return [e for e in self.events(robot, **filters) if e["text"].startswith("-") and e["text"].endswith(" HP")]

    def phases_logged(self) -> set[int | str]:
        return {e["phase"] for e in self.doc["events"]}
