"""Deadlines as players read them, and a game's fixed deadline clock time.

Every mail writes a deadline the same way: weekday, date and clock time in UTC, then the time left,
and, for a player who gave a time zone, the same moment in their zone:
``Thu 26 Nov 2026, 18:00 UTC (in 2 days 5 hours; 19:00 Thu in Europe/Berlin)``.

A game with a fixed clock time (``DEADLINE 3d AT 21:00``) does not drift: the deadline falls on the
day the delay ends, at that clock time (UTC); when that is not after the turn mail, the next day.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

CLOCK_RE = re.compile(r"^([01]?\d|2[0-3]):([0-5]\d)$")


class BadClock(ValueError):
    """A clock time or time zone that cannot be read."""


def parse_clock(text: str) -> str:
    """``21:00`` (or ``9:30``) as ``HH:MM``."""
    m = CLOCK_RE.match(text.strip())
    if not m:
        raise BadClock(f"a clock time reads HH:MM (21:00), not {text!r}")
    return f"{int(m.group(1)):02d}:{m.group(2)}"


def zone(name: str) -> ZoneInfo:
    """An IANA time zone (``Europe/Berlin``, ``America/New_York``, ``UTC``)."""
    try:
        return ZoneInfo(name.strip())
    except (ZoneInfoNotFoundError, ValueError):
        raise BadClock(f"unknown time zone {name!r} (write it as Europe/Berlin, America/New_York, UTC)") from None


def deadline_after(opened: datetime, seconds: int, clock: str | None) -> datetime | None:
    """The deadline of a turn mailed at ``opened``: ``seconds`` later, moved to ``clock`` (UTC) that day
    when the game has a fixed clock time. No delay (0): no deadline."""
    if not seconds:
        return None
    end = opened + timedelta(seconds=seconds)
    if not clock:
        return end
    hour, minute = (int(x) for x in parse_clock(clock).split(":"))
    fixed = end.replace(hour=hour, minute=minute, second=0, microsecond=0)
    while fixed <= opened:
        fixed += timedelta(days=1)
    return fixed


def remaining(delta: timedelta) -> str:
    """``2 days 5 hours``, ``3 hours 20 minutes``, ``12 minutes``: the two largest units."""
    minutes = max(0, int(delta.total_seconds() // 60))
    days, rest = divmod(minutes, 24 * 60)
    hours, mins = divmod(rest, 60)

    def unit(n: int, word: str) -> str:
        return f"{n} {word}{'s' if n != 1 else ''}"

    if days:
        return unit(days, "day") + (f" {unit(hours, 'hour')}" if hours else "")
    if hours:
        return unit(hours, "hour") + (f" {unit(mins, 'minute')}" if mins else "")
    return unit(mins, "minute")


def _utc(when: datetime) -> datetime:
    return when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)


def when_text(when: datetime) -> str:
    """``Thu 26 Nov 2026, 18:00 UTC``."""
    w = _utc(when)
    return f"{w:%a} {w.day} {w:%b %Y, %H:%M} UTC"


def deadline_text(deadline: datetime | None, now: datetime | None = None, tz: str | None = None) -> str | None:
    """A deadline as every mail writes it (None: no deadline)."""
    if deadline is None:
        return None
    text = when_text(deadline)
    extra: list[str] = []
    if now is not None:
        left = _utc(deadline) - _utc(now)
        extra.append("passed" if left.total_seconds() <= 0 else f"in {remaining(left)}")
    if tz:
        try:
            local = _utc(deadline).astimezone(zone(tz))
        except BadClock:
            local = None
        if local is not None and tz.strip().upper() != "UTC":
            extra.append(f"{local:%H:%M %a} in {tz.strip()}")
    return f"{text} ({'; '.join(extra)})" if extra else text
