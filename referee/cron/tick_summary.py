"""What one tick did (:class:`TickSummary`): the counts a tick prints as one line or JSON, its errors and
faults, and its exit code."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class TickSummary:
    skipped: str | None = None
    fetched: int = 0
    processed: int = 0
    resolved: list[str] = field(default_factory=list)
    reminders: int = 0
    extended: list[str] = field(default_factory=list)
    sent: int = 0
    failed: int = 0
    #: due mails the outbox pass left for the next tick (its time bound reached)
    unsent: int = 0
    #: old mails reduced to their header (:mod:`referee.store.retention`)
    purged: int = 0
    #: due mails the outbox could not send this time (a server down, a temporary refusal): tried again later
    postponed: int = 0
    #: why the outbox could not send this time (None: it could, or had nothing to send)
    send_error: str | None = None
    #: due turns that cannot be resolved (their course cannot be loaded), with why; their GM is told once
    unresolvable: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    #: one line per fault that started or ended in this tick (:mod:`referee.cron.health`)
    changes: list[str] = field(default_factory=list)
    #: the figures of :class:`referee.cron.health.Health` after this tick (failed sends, the oldest unsent
    #: mail's age, the last fetch that worked, the faults)
    health: dict[str, object] = field(default_factory=dict)
    seconds: float = 0.0

    def line(self) -> str:
        if self.skipped:
            return f"tick: skipped ({self.skipped})"
        parts = [f"fetched {self.fetched}", f"processed {self.processed}",
                 f"resolved {len(self.resolved)}",  # the games are in the verbose log, one line each
                 f"reminded {self.reminders}", f"sent {self.sent}"]
        if self.failed:
            parts.append(f"send failures {self.failed}")
        if self.postponed or self.send_error:
            parts.append(f"not sent, tried again later {self.postponed}"
                         + (f" ({' '.join(self.send_error.split())[:120]})" if self.send_error else ""))
        if self.unresolvable:
            parts.append(f"turns that cannot be resolved {len(self.unresolvable)} (the first: "
                         f"{self.unresolvable[0][:160]})")
        if self.unsent:
            parts.append(f"left in the outbox for the next tick {self.unsent}")
        if self.purged:
            parts.append(f"old mails reduced to their header {self.purged}")
        if self.extended:
            parts.append(f"deadlines extended after an outage {len(self.extended)}")
        if self.errors:
            first = " ".join(self.errors[0].split())[:200]   # one line (PostgreSQL errors have DETAIL lines)
            parts.append(f"{len(self.errors)} error(s), the first: {first}")
        return f"tick: {', '.join(parts)} in {self.seconds:.1f} s"

    @property
    def ok(self) -> bool:
        return not self.errors

    @property
    def degraded(self) -> bool:
        """A fault lasts (:mod:`referee.cron.health`): sends or fetches failing for an hour, a turn that
        cannot be resolved, a failing step."""
        return bool(self.health.get("faults")) or bool(self.unresolvable)

    @property
    def exit_code(self) -> int:
        """0 all well (or another tick was running), 1 a step failed in this tick, 4
        (:data:`referee.cron.health.EXIT_DEGRADED`) the tick ran but a fault lasts."""
        from .health import EXIT_DEGRADED

        if self.skipped:
            return 0
        return 1 if self.errors else EXIT_DEGRADED if self.degraded else 0

    def as_dict(self) -> dict[str, object]:
        """For ``referee tick --json``."""
        from dataclasses import asdict

        return {**asdict(self), "ok": self.ok, "degraded": self.degraded, "exit_code": self.exit_code,
                "line": self.line()}
