"""Scenarios with option cards: robots holding options, the option deck, and the players' option orders,
resolved through the public ``simulate`` contract (see tests/engine/scenarios.py)."""

from __future__ import annotations

from typing import Any

from tests.engine.scenarios import Outcome, Spec, bot, run

__all__ = ["Outcome", "bot", "decisions", "holder", "run", "texts_of"]


def holder(name: str, at: str | None, facing: str = "N", *options: str, **fields: Any) -> Spec:
    """A robot holding ``options``."""
    return bot(name, at, facing, options=list(options), **fields)


def decisions(out: Outcome, subject: str) -> list[Spec]:
    """The decisions of one subject the turn asked for, in order."""
    return [d for d in out.doc["decisions"] if d["subject"] == subject]


def texts_of(out: Outcome, robot: str) -> list[str]:
    return [e["text"] for e in out.events(robot)]
