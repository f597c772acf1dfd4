"""The one place the service reads the time.

Everything that needs "now" takes it as an argument; the entry points (the CLI, the tick) get it
from :func:`now`. Tests move time by passing ``now`` directly, or, for a command run as a process,
by setting ``REFEREE_NOW`` (an ISO 8601 time; without a zone it is UTC). The engine never reads it.
"""

from __future__ import annotations

import os
import re
from datetime import UTC, datetime, timedelta

NOW_ENV = "REFEREE_NOW"


class TimeError(ValueError):
    """A time or duration that cannot be read."""


class DurationTooLong(TimeError):
    """A duration longer than :data:`MAX_DURATION_DAYS`."""


def parse_time(text: str) -> datetime:
    """An ISO 8601 time (``2026-12-01T18:00``, ``2026-12-01 18:00+01:00``); no zone means UTC."""
    try:
        value = datetime.fromisoformat(text.strip())
    except ValueError:
        raise TimeError(f"{text!r} is not a time such as 2026-12-01T18:00 or 2026-12-01 18:00+01:00") from None
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def now() -> datetime:
    """The current time (aware, UTC), or ``$REFEREE_NOW`` when set."""
    fixed = os.environ.get(NOW_ENV)
    if fixed:
        return parse_time(fixed)
    return datetime.now(UTC)


_DURATION = re.compile(r"^\s*\+?\s*(\d+)\s*(d|day|days|h|hour|hours|m|min|mins|minutes?|s|secs?|seconds?)?\s*$",
                       re.IGNORECASE)
_UNITS = {"d": 86400, "h": 3600, "m": 60, "s": 1}
#: the longest duration read at all (longer ones are refused as unreadable, never an OverflowError);
#: each setting has its own, smaller range (see :data:`referee.games.lifecycle.RANGES`)
MAX_DURATION_DAYS = 3650


def parse_duration(text: str) -> timedelta:
    """``5d``, ``+2d``, ``36h``, ``90m``, ``45s``, ``2 days`` or plain seconds."""
    total = 0
    parts = re.findall(r"\+?\s*\d+\s*[a-zA-Z]*", text)
    if not parts or "".join(parts).replace(" ", "") != text.replace(" ", ""):
        raise TimeError(f"{text!r} is not a duration such as 2d, 36h, 90m or 2d12h")
    for part in parts:
        m = _DURATION.match(part)
        if not m:
            raise TimeError(f"{text!r} is not a duration such as 2d, 36h, 90m or 2d12h")
        unit = (m.group(2) or "s")[0].lower()
        if len(m.group(1)) > 12:
            raise DurationTooLong(f"{text[:40]!r} is too long a duration (at most {MAX_DURATION_DAYS} days)")
        total += int(m.group(1)) * _UNITS[unit]
    if total > MAX_DURATION_DAYS * 86400:
        raise DurationTooLong(f"{text!r} is too long a duration (at most {MAX_DURATION_DAYS} days)")
    return timedelta(seconds=total)
