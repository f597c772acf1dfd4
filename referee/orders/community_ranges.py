"""The range of every value a player, an observer or a stranger writes in a command (pure), like the game
master's (:mod:`referee.games.ranges`): one table, listed in docs/players.md, checked where the value is read.

A value outside its range is answered ``NOT DONE`` with the range in the reason; nothing out of range
reaches the database or the clock arithmetic (no ``OverflowError`` from ``ABSENT 9999-12-30 TO 9999-12-31``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta


@dataclass(frozen=True)
class Limit:
    what: str
    low: int
    high: int
    unit: str = ""

    def text(self) -> str:
        return f"{self.what}: {self.low} to {self.high}{' ' + self.unit if self.unit else ''}"


#: a game code: ``JOIN``, ``OBSERVE``, ``UNOBSERVE``, ``RESIGN`` (letters, digits and '-')
GAME_CODE = Limit("a game code (letters, digits and -)", 1, 32, "characters")
#: a robot name: ``JOIN ... AS``, ``WHOIS``, ``PRESS TO`` (a letter, then letters, digits, - or _)
ROBOT_NAME = Limit("a robot name (a letter, then letters, digits, - or _)", 1, 20, "characters")
#: a mail address: ``SET ADDRESS``, ``WHOIS`` (a plain address: local part @ domain, ASCII, no controls)
ADDRESS = Limit("a mail address", 6, 254, "characters")
ADDRESS_LOCAL = Limit("the part of an address before the @", 1, 64, "characters")
#: ``ABSENT``: days away, the first and the last included
ABSENCE_DAYS = Limit("an absence (the first and the last day included)", 1, 90, "days")
#: ``ABSENT``: the first day is at most this many days ahead of today ...
ABSENT_AHEAD = Limit("the first day of an absence, from today", 0, 365, "days ahead")
#: (and its last day is today or later: an absence that is over is refused)
#: ``PRESS``: the message on the lines after it
PRESS_CHARS = Limit("press (the message)", 1, 4000, "characters")
#: commands in one mail
COMMANDS = Limit("commands in one mail", 1, 10)

#: every range, in the order of docs/players.md
TABLE = (GAME_CODE, ROBOT_NAME, ADDRESS, ADDRESS_LOCAL, ABSENCE_DAYS, ABSENT_AHEAD, PRESS_CHARS, COMMANDS)

# RFC 5322 dot-atom local part (ASCII only) and a domain of LDH labels with a letter TLD
_LOCAL = re.compile(r"^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$")
_LABEL = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$")
_TLD = re.compile(r"^(?:[A-Za-z]{2,63}|xn--[A-Za-z0-9-]{1,59})$")


def address_problem(word: str) -> str | None:
    """Why ``word`` is no plain mail address (``name@example.org``), or None. Control characters, quotes,
    comments, IP literals, non-ASCII and anything over the lengths of RFC 5321 are refused."""
    shown = repr(word[:80])
    if not word.isascii() or not word.isprintable():
        return (f"{shown} is no plain mail address (only letters, digits and . _ + - before the @; "
                "no control characters)")
    if not ADDRESS.low <= len(word) <= ADDRESS.high:
        return f"{shown} is no mail address ({ADDRESS.text()})"
    local, at, domain = word.rpartition("@")
    if not at or not _LOCAL.match(local):
        return f"{shown} is no plain mail address (name@example.org)"
    if len(local) > ADDRESS_LOCAL.high:
        return f"{shown} is no mail address ({ADDRESS_LOCAL.text()})"
    labels = domain.split(".")
    if len(labels) < 2 or not all(_LABEL.match(x) for x in labels) or not _TLD.match(labels[-1]):
        return f"{shown} is no mail address (its domain must be like example.org)"
    return None


def span_problem(first: date, last: date) -> str | None:
    """Why ``ABSENT first TO last`` is refused whatever the day, or None."""
    if last < first:
        return f"the last day ({last:%Y-%m-%d}) comes before the first ({first:%Y-%m-%d})"
    days = (last - first).days + 1
    if days > ABSENCE_DAYS.high:
        return (f"an absence is at most {ABSENCE_DAYS.high} days, first and last day included (this one is {days}); "
                f"send ABSENT for the first {ABSENCE_DAYS.high} days now and another one later, or RESIGN")
    return None


def absence_problem(first: date, last: date, today: date) -> str | None:
    """Why ``ABSENT first TO last``, written ``today``, is refused, or None (see the ranges above)."""
    if (why := span_problem(first, last)) is not None:
        return why
    if last < today:
        return f"that absence is over already (today is {today:%Y-%m-%d})"
    if (first - today).days > ABSENT_AHEAD.high:
        furthest = today + timedelta(days=ABSENT_AHEAD.high)
        return (f"an absence starts at most {ABSENT_AHEAD.high} days ahead (by {furthest:%Y-%m-%d}), "
                f"not {first:%Y-%m-%d}")
    return None
