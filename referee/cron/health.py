"""The service's health, as cron, systemd and monitoring see it: ``referee tick`` and ``referee status``.

What is measured, from the store: mails that failed for good, mails that wait in the outbox (and the age of the
oldest), the last fetch of new mail that worked, the last tick, and the *faults*. A fault is a condition that
needs the operator, kept in the store under its own key while it lasts:

- ``send``: the outbox has not been able to send for :data:`GRACE` or longer (the oldest mail waiting and
  tried at least once is that old), e.g. an SMTP server that refuses every connection;
- ``fetch`` (or ``send``): that step of the tick has failed for :data:`GRACE` or longer (an IMAP server down, a
  refused login);
- ``turn GAME N``: a due turn that cannot be resolved (its course cannot be loaded); its GM is told once;
- ``step NAME``: a step of the tick failed (the summary line says why).

The tick prints one line when a fault starts and one when it ends (:func:`transitions`), never one per tick, so
cron's MAILTO mails twice per fault, not 288 times a day. While any fault lasts the tick exits with
:data:`EXIT_DEGRADED` (unless a step failed in this very tick: 1). ``referee status`` prints the same figures
without running a tick.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ..store.mail import get_state, set_state
from ..store.mail_models import OutgoingMail

#: the exit status of ``referee tick`` and ``referee status`` while a fault lasts (0: healthy, 1: a step failed
#: in this tick, 2: the settings cannot be used)
EXIT_DEGRADED = 4
#: how long sends or fetches may fail before it is a fault (a server restarted at night is not one)
GRACE = timedelta(hours=1)
#: the store keys: the faults now ({key: since and what}), the last fetch that worked, the last tick
FAULTS = "health.faults"
LAST_FETCH = "health.last_fetch"
LAST_RUN = "tick.last_run"
FAILING = "health.failing"
#: steps that may fail for :data:`GRACE` before it is a fault (a server restarted, a network hiccup)
GRACED = ("fetch", "send")


@dataclass
class Health:
    """The figures of ``tick --json`` and ``status --json``."""

    #: mails the outbox gave up on (status failed) in all
    failed_sends: int = 0
    #: mails waiting to go out, and those among them tried at least once without success
    unsent: int = 0
    retrying: int = 0
    #: seconds since the oldest mail still waiting was queued (None: none waits)
    oldest_unsent_seconds: float | None = None
    #: when a fetch of new mail last worked (ISO 8601, UTC; None: never)
    last_fetch: str | None = None
    last_tick: str | None = None
    #: the faults now: key -> what it is, and since when
    faults: dict[str, dict[str, str]] = field(default_factory=dict)

    @property
    def degraded(self) -> bool:
        return bool(self.faults)

    def as_dict(self) -> dict[str, Any]:
        return {**asdict(self), "degraded": self.degraded}

    def lines(self) -> list[str]:
        """``referee status``: one line per figure, then one per fault."""
        age = "none waiting" if self.oldest_unsent_seconds is None else f"the oldest {_age(self.oldest_unsent_seconds)}"
        out = [f"status: {'DEGRADED' if self.degraded else 'ok'}",
               f"last tick: {self.last_tick or 'never'}",
               f"last fetch that worked: {self.last_fetch or 'never'}",
               f"outbox: {self.unsent} waiting ({self.retrying} retrying), {age}; {self.failed_sends} failed for good"]
        out += [f"fault since {f['since']}: {f['what']}" for f in self.faults.values()]
        return out


def _age(seconds: float) -> str:
    if seconds < 120:
        return f"{seconds:.0f} s old"
    if seconds < 7200:
        return f"{seconds / 60:.0f} min old"
    return f"{seconds / 3600:.1f} h old"


def measure(s: Session, now: datetime) -> Health:
    """The figures now, and the faults recorded by the last tick."""
    failed = s.scalar(select(func.count()).select_from(OutgoingMail).where(OutgoingMail.status == "failed")) or 0
    waiting = (OutgoingMail.status.in_(("pending", "sending")),)
    unsent = s.scalar(select(func.count()).select_from(OutgoingMail).where(*waiting)) or 0
    retrying = s.scalar(select(func.count()).select_from(OutgoingMail)
                        .where(*waiting, OutgoingMail.attempts > 0)) or 0
    oldest = s.scalar(select(func.min(OutgoingMail.created_at)).where(*waiting))
    fetched = get_state(s, LAST_FETCH) or {}
    ran = get_state(s, LAST_RUN) or {}
    age = None if oldest is None else max(0.0, (now - _aware(oldest, now)).total_seconds())
    return Health(failed_sends=failed, unsent=unsent, retrying=retrying, oldest_unsent_seconds=age,
                  last_fetch=fetched.get("at"), last_tick=ran.get("at"), faults=dict(get_state(s, FAULTS) or {}))


def _aware(t: datetime, like: datetime) -> datetime:
    """``t`` comparable with ``like`` (SQLite gives naive UTC datetimes back)."""
    if (t.tzinfo is None) == (like.tzinfo is None):
        return t
    return t.replace(tzinfo=like.tzinfo) if t.tzinfo is None else t.replace(tzinfo=None)


def oldest_retried(s: Session) -> datetime | None:
    """When the oldest mail that waits and was tried at least once was queued."""
    return s.scalar(select(func.min(OutgoingMail.created_at))
                    .where(OutgoingMail.status.in_(("pending", "sending")), OutgoingMail.attempts > 0))


def fetched_now(s: Session, now: datetime) -> None:
    """Record a fetch that worked."""
    set_state(s, LAST_FETCH, {"at": now.isoformat()}, now=now)


def faults_now(s: Session, now: datetime, *, step_errors: dict[str, str], stuck: dict[str, str]) -> dict[str, str]:
    """The faults as this tick sees them: key -> what (see the module's docstring). ``step_errors``: step ->
    error of this tick; ``stuck``: turn -> why. Fetching and sending are faults only once they have failed for
    :data:`GRACE` (their first failure is kept in the store until one works)."""
    out: dict[str, str] = {}
    failing = dict(get_state(s, FAILING) or {})
    for step in GRACED:
        if step in step_errors:
            failing.setdefault(step, now.isoformat(timespec="seconds"))
        else:
            failing.pop(step, None)
    if failing != (get_state(s, FAILING) or {}):
        set_state(s, FAILING, failing, now=now)
    retried = oldest_retried(s)
    if retried is not None and now - _aware(retried, now) >= GRACE:
        out["send"] = (f"mail has not gone out for {_age((now - _aware(retried, now)).total_seconds())[:-4]}: the "
                       f"oldest unsent mail was queued at {retried:%Y-%m-%d %H:%M}"
                       + (f", and the last try said: {step_errors['send']}" if "send" in step_errors else "")
                       + " (referee outbox list; referee config check tries the SMTP server)")
    for step, since in failing.items():
        if now - _aware(datetime.fromisoformat(since), now) >= GRACE:
            out.setdefault(step, f"the {step} step has failed since {since}: {step_errors[step]}")
    for step, error in step_errors.items():
        if step not in GRACED:
            out[f"step {step}"] = f"the tick's {step} step failed: {error}"
    for turn, why in stuck.items():
        out[f"turn {turn}"] = f"{turn} cannot be resolved: {why}"
    return out


def transitions(s: Session, now: datetime, current: dict[str, str]) -> list[str]:
    """Store the faults of this tick and return one line per fault that started and per fault that ended."""
    before = dict(get_state(s, FAULTS) or {})
    lines = []
    after: dict[str, dict[str, str]] = {}
    for key, what in current.items():
        if key in before:
            after[key] = {**before[key], "what": what}
        else:
            after[key] = {"since": now.isoformat(timespec="seconds"), "what": what}
            lines.append(f"referee: fault started: {what}")
    for key, old in before.items():
        if key not in current:
            lines.append(f"referee: fault ended (since {old['since']}): {key}")
    if after != before:
        set_state(s, FAULTS, after, now=now)
    return lines
