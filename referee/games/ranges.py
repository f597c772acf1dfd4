"""The range of every number a game master types, by mail (GM commands) or at the shell (``referee game``):
one table, checked where the value is read and again where a game is changed, and listed in docs/gm.md.

A value outside its range is refused with the range in the reason; nothing out of range reaches the
database or the clock arithmetic (no ``OverflowError`` from a deadline in the year 10000).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

DAY = 86400


@dataclass(frozen=True)
class Range:
    what: str
    low: int
    high: int
    #: ``seconds``: written back as a duration (365d)
    unit: str = ""

    def text(self, value: int) -> str:
        return duration_words(value) if self.unit == "seconds" else str(value)

    def problem(self, value: int) -> str | None:
        """Why ``value`` is refused, or None."""
        if self.low <= value <= self.high:
            return None
        return self.refusal(self.text(value))

    def refusal(self, shown: str) -> str:
        return f"{self.what} must be from {self.text(self.low)} to {self.text(self.high)}, not {shown}"


def duration_words(seconds: int) -> str:
    if seconds == 0:
        return "0"
    for unit, size in (("d", DAY), ("h", 3600), ("m", 60)):
        if seconds and seconds % size == 0:
            return f"{seconds // size}{unit}"
    return f"{seconds}s"


DEADLINE = Range("DEADLINE (the time players have per turn)", 0, 365 * DAY, "seconds")
REMINDER = Range("REMINDER (before the deadline)", 0, 365 * DAY, "seconds")
SETTLE = Range("SETTLE (the wait after the last program)", 0, 7 * DAY, "seconds")
MISSED = Range("MISSED (turns missed before a seat is declared open; 0: never)", 0, 100)
#: EXTEND, and SET DEADLINE +<delay>
EXTEND = Range("the delay", 0, 365 * DAY, "seconds")
TURN = Range("the turn number", 1, 99_999)
DAMAGE = Range("DAMAGE", 0, 9)
LIVES = Range("LIVES", 0, 9)
FLAGS = Range("FLAGS", 0, 99)
#: a deadline is at most this far ahead of now (SET DEADLINE, EXTEND, RESUME)
AHEAD = timedelta(days=366)
#: characters of a game's title, and of a player's name
TITLE_CHARS = 200


def deadline_problem(deadline: datetime | None, now: datetime) -> str | None:
    """Why a deadline is refused (more than :data:`AHEAD` after ``now``), or None."""
    if deadline is None or deadline - now <= AHEAD:
        return None
    return (f"a deadline is at most {AHEAD.days} days ahead (until {(now + AHEAD):%Y-%m-%d %H:%M} UTC), "
            f"not {deadline:%Y-%m-%d %H:%M}")


def later(base: datetime, seconds: int) -> datetime | None:
    """``base`` plus ``seconds``, or None when that is beyond the calendar."""
    try:
        return base + timedelta(seconds=seconds)
    except OverflowError:
        return None
