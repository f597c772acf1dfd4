"""How often the tick really runs, and what counts as an outage (issue 41, item 9).

Every tick records when it ran (the last :data:`KEEP` runs, in the service state ``tick.runs``). An outage
is a gap between two ticks well above the cadence the referee has seen: over :data:`OUTAGE_TIMES` times the
median of the recent gaps, over :data:`OUTAGE_TIMES` times the gap just before it, over
:data:`OUTAGE_TIMES` times ``tick_interval``, and over :data:`OUTAGE_FLOOR`. So a crontab that runs the tick
every 20 or 30 minutes is no outage, whatever ``tick_interval`` says; a day without ticks is. Before the
referee has seen a gap of its own, the cadence is taken to be ``tick_interval``.

The gap just before counts because a crontab changed from every 5 to every 30 minutes keeps the median at 5
minutes for ten more ticks: without it each of those 30-minute gaps would be an outage, and a deadline moved
on by one would fall into the next and be moved on again, with a "deadline extended" mail every time. The
price: an outage that follows another with a single tick between them, and is not three times as long, moves
no deadline.

A turn's deadline that fell in an outage is moved on by the outage's length, once per outage (the turn
notice ``outage``, keyed by the outage's start, records it): a tick that dies after extending and runs
again extends nothing twice.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from itertools import pairwise
from pathlib import Path
from statistics import median

from sqlalchemy.orm import Session

from ..common.config import Settings
from ..store.mail import get_state, set_state

#: the service state that keeps the recent runs
RUNS = "tick.runs"
#: how many runs are kept
KEEP = 20
#: a gap over this many times the cadence (and over this many tick intervals) is an outage
OUTAGE_TIMES = 3
#: and never a gap of this or less
OUTAGE_FLOOR = timedelta(minutes=15)


def runs(s: Session) -> list[datetime]:
    """The recent runs, oldest first."""
    row = get_state(s, RUNS) or {}
    return [datetime.fromisoformat(at) for at in row.get("at", [])]


def gaps(times: list[datetime]) -> list[float]:
    """Seconds between consecutive runs."""
    return [(b - a).total_seconds() for a, b in pairwise(times) if b > a]


def cadence(seen: list[float], tick_interval: int) -> float:
    """The tick's cadence in seconds: the median of the gaps seen, or ``tick_interval`` before there are any."""
    return median(seen) if seen else float(tick_interval)


def is_outage(gap: timedelta, seen: list[float], tick_interval: int) -> bool:
    """Whether ``gap`` since the last run is an outage (see the module docstring)."""
    seconds = gap.total_seconds()
    return (gap > OUTAGE_FLOOR and seconds > OUTAGE_TIMES * tick_interval
            and seconds > OUTAGE_TIMES * cadence(seen, tick_interval)
            and (not seen or seconds > OUTAGE_TIMES * seen[-1]))


def record(s: Session, now: datetime, *, last: datetime | None = None) -> None:
    """Add the run at ``now`` to the recent runs (``last``: the run before, when none is recorded yet)."""
    times = runs(s)
    if not times and last is not None and last < now:
        times = [last]
    times = [t for t in times if t < now] + [now]
    set_state(s, RUNS, {"at": [t.isoformat() for t in times[-KEEP:]]}, now=now)


def observed_gaps(settings: Settings) -> list[float] | None:
    """The gaps between the recent ticks, read from the database of ``settings``; None when it cannot be read
    (``referee config check`` reports the database on its own)."""
    from ..store.db import Store, parse_url

    try:
        url = parse_url(settings.database_url)
        if url.get_backend_name() == "sqlite" and not (url.database and Path(url.database).is_file()):
            return None   # not made yet (and not made here)
        with Store.from_settings(settings) as store, store.read() as s:
            return gaps(runs(s))
    except Exception:   # no database yet, an old schema, a server down: nothing to say about the cadence
        return None


def outage_key(since: datetime) -> str:
    """The turn notice key of the outage that began after the run at ``since`` (at most 32 characters)."""
    return f"{since:%Y%m%dT%H%M%S}"
