"""The pieces of the GM's command language every reader of it shares (pure): a command as read, the error of a
line that cannot be read, and the readers of its small values (ON/OFF, whole numbers in their ranges)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ..games import ranges


@dataclass(frozen=True)
class Command:
    name: str
    args: dict[str, Any]
    line: int
    text: str


class GmSyntaxError(ValueError):
    """A GM line that cannot be read; the message says why, for the GM."""


def switch(value: str) -> bool:
    """``ON``/``OFF`` (or yes/no, true/false) as a yes/no."""
    v = value.lower()
    if v in ("on", "yes", "true"):
        return True
    if v in ("off", "no", "false"):
        return False
    raise GmSyntaxError(f"expected ON or OFF, not {value!r}")


def whole_number(value: str, what: str, limits: ranges.Range | None = None) -> int:
    """A whole number of at most 12 digits, within ``limits`` when given."""
    if not re.fullmatch(r"\d+", value):
        raise GmSyntaxError(f"{what} must be a whole number, not {value[:40]!r}")
    if len(value) > 12:   # never a 4,300-digit int() or a number SQL cannot store
        shown = f"a number of {len(value)} digits"
        raise GmSyntaxError(limits.refusal(shown) if limits else f"{what} must be smaller, not {shown}")
    number = int(value)
    problem = limits.problem(number) if limits else None
    if problem:
        raise GmSyntaxError(problem)
    return number
