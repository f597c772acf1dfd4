"""Sending the outbox: claim, send, mark; retried with backoff; failures told to the GM.

One pass of :func:`send_outbox` takes the due mails one at a time:

1. claims the next one (:func:`~referee.store.outbox.claim_next`: it becomes ``sending`` with a lease)
   and commits that mark before talking to the server, so no other sender takes it;
2. sends it, retrying within the pass a few times with exponential backoff (tenacity) while the
   failure is temporary (a 4xx answer, a dropped connection);
3. records the outcome in its own transaction, right after the server answered: ``sent``; or back to
   ``pending`` for a later pass (``next_attempt_at`` backs off from a minute to an hour); or ``failed``
   when the server refuses the mail for good (5xx) or it has not gone out for ``give_up_after``, with
   a mail about it queued for the GM in the same transaction.

A pass drains the outbox: it sends the due mails in batches of ``outbox_batch`` and goes on while mails
are due, until ``outbox_pass_seconds`` have passed (checked between batches, so the first batch always
goes; with ``limit``, at most that many mails). What it leaves due is counted in the report's ``left`` and
logged as a warning, so a busy tick never leaves mail waiting for the next cron run without saying so.

If the server itself cannot be reached (or refuses us), the pass stops and the mail is given back for
the next pass. Sending is at-least-once: a sender that dies between the server's acceptance and the
``sent`` mark leaves the mail ``sending``; when its lease runs out (a few minutes: it covers one mail)
the next pass sends it again, with the same bytes and so the same Message-ID (clients drop the copy).
Such a resend is logged, counted in the pass's ``resent`` and in the mail's ``resends``: it may be a
duplicate. A mail is never lost.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from email.message import EmailMessage
from email.utils import format_datetime, formataddr

from sqlalchemy import func, select
from sqlalchemy.orm import Session
from tenacity import AsyncRetrying, retry_if_exception_type, stop_after_attempt, wait_exponential
from tenacity.wait import wait_base

from ..common.config import Settings
from ..orders.mailtext import outgoing_headers
from ..store import outbound
from ..store.db import Store
from ..store.mail_models import OutgoingMail
from ..store.models import Game, Player
from ..store.outbox import claim_next, enqueue_mail, mark_failed, mark_retry, mark_sent, outbox_due
from ..store.types import utcnow
from .transports import DeliveryError, PermanentError, ServerDown, TemporaryError, Transport, transport_for

log = logging.getLogger("referee.mailer")

#: ``OutgoingMail.kind`` of the mail that tells the GM a mail could not be delivered (never itself reported)
KIND_FAILURE = "gm_failure"


@dataclass(frozen=True)
class RetryPolicy:
    #: tries within one pass (the first one included) while failures are temporary
    attempts: int = 3
    #: waits between those tries (tenacity wait strategy)
    wait: wait_base = field(default_factory=lambda: wait_exponential(multiplier=1, min=1, max=8))
    #: after a pass gave up on a mail: the first wait before the next pass may try, doubled each time ...
    backoff: timedelta = timedelta(minutes=1)
    #: ... up to this
    backoff_max: timedelta = timedelta(hours=1)
    #: a mail still not sent this long after it was queued is failed (and the GM told)
    give_up_after: timedelta = timedelta(days=2)

    def next_try(self, attempts: int) -> timedelta:
        """How long after a pass's last try (the mail's ``attempts``-th claim) the next pass may try."""
        factor: int = 2 ** max(0, attempts - 1)
        return min(self.backoff_max, self.backoff * factor)

    def lease(self, timeout: float) -> timedelta:
        """How long a mail stays claimed: every try timing out, the waits between them, and some to spare."""
        return timedelta(minutes=2) + timedelta(seconds=self.attempts * (timeout + 8))


DEFAULT_POLICY = RetryPolicy()


@dataclass
class SendReport:
    """What one pass did."""

    sent: int = 0
    #: temporary failures: back to the queue for a later pass
    postponed: int = 0
    failed: int = 0
    #: mails found ``sending`` (their sender stopped) and sent again: possible duplicates
    resent: int = 0
    #: mails queued for the GM about failures
    notices: int = 0
    #: why the pass stopped early (the server could not be used), if it did
    stopped: str | None = None
    errors: list[str] = field(default_factory=list)
    #: batches of ``outbox_batch`` mails begun
    batches: int = 0
    #: mails still due when the pass ended on its time or ``limit`` (they go with the next pass)
    left: int = 0
    #: why mails were left: the time bound or the limit
    left_why: str = ""

    @property
    def attempted(self) -> int:
        return self.sent + self.postponed + self.failed

    def summary(self) -> str:
        text = f"outbox: {self.sent} sent, {self.postponed} postponed, {self.failed} failed"
        if self.resent:
            text += f", {self.resent} sent again after a stopped sender (possible duplicates)"
        if self.notices:
            text += f", GM told of {self.notices}"
        if self.batches > 1:
            text += f" in {self.batches} batches"
        if self.left:
            text += f"; {self.left} due mail(s) left for the next pass ({self.left_why})"
        if self.stopped:
            text += f"; stopped: {self.stopped}"
        return text


@dataclass(frozen=True)
class Claimed:
    """What a pass needs of a claimed mail, read while the claim's transaction was open."""

    id: int
    message_id: str
    kind: str
    sender: str
    recipients: list[str]
    raw: bytes
    attempts: int
    created_at: datetime

    @classmethod
    def of(cls, m: OutgoingMail) -> Claimed:
        return cls(m.id, m.message_id, m.kind, m.sender, [str(r) for r in m.recipients], bytes(m.raw), m.attempts,
                   m.created_at)


@dataclass
class Outcome:
    refused: dict[str, str] = field(default_factory=dict)
    error: DeliveryError | None = None


async def deliver(transport: Transport, mail: Claimed, policy: RetryPolicy = DEFAULT_POLICY) -> Outcome:
    """Send one mail, trying again within ``policy`` while failures are temporary. Never raises a
    :class:`DeliveryError`; the outcome holds the last one."""

    def note(state: object) -> None:
        exc = state.outcome.exception() if state.outcome else None  # type: ignore[attr-defined]
        log.info("%s to %s: %s; trying again", mail.message_id, ", ".join(mail.recipients), exc)

    try:
        async for attempt in AsyncRetrying(stop=stop_after_attempt(max(1, policy.attempts)), wait=policy.wait,
                                           retry=retry_if_exception_type(TemporaryError), reraise=True,
                                           before_sleep=note):
            with attempt:
                refused = await transport.send(mail.sender, mail.recipients, mail.raw)
    except DeliveryError as exc:
        return Outcome(error=exc)
    return Outcome(refused=refused)


async def send_outbox(store: Store, settings: Settings, *, now: datetime | None = None,
                      transport: Transport | None = None, policy: RetryPolicy = DEFAULT_POLICY,
                      limit: int | None = None, clock: Callable[[], float] = time.monotonic) -> SendReport:
    """One pass over the due mails of the outbox: all of them, in batches of ``outbox_batch``, until
    ``outbox_pass_seconds`` (by ``clock``) have passed; at most ``limit`` mails when given. See the module
    docstring.

    ``transport`` defaults to the one the settings name (and is closed at the end; one passed in is not).
    ``now`` is the pass's time: what is due, leases, backoff and ``sent_at`` all count from it.
    """
    now = now or utcnow()
    report = SendReport()
    own = transport is None
    transport = transport or transport_for(settings)
    lease = policy.lease(settings.mail_timeout)
    batch = max(1, settings.outbox_batch)
    started = clock()
    try:
        while True:
            if limit is not None and report.attempted >= limit:
                report.left_why = f"--limit {limit}"
                break
            if report.batches and clock() - started >= settings.outbox_pass_seconds:
                report.left_why = f"outbox_pass_seconds = {settings.outbox_pass_seconds:g} reached"
                break
            report.batches += 1
            size = batch if limit is None else min(batch, limit - report.attempted)
            if not await _send_batch(store, settings, transport, policy, now, lease, size, report):
                return report
    finally:
        if own:
            await transport.close()
    report.left = _due(store, now)
    if report.left:
        log.warning("outbox: %d due mail(s) left for the next pass (%s)", report.left, report.left_why)
    return report


async def _send_batch(store: Store, settings: Settings, transport: Transport, policy: RetryPolicy, now: datetime,
                      lease: timedelta, size: int, report: SendReport) -> bool:
    """Claim, send and record up to ``size`` mails, one at a time. False when the pass is over: nothing
    more is due, or the server is down (``report.stopped``)."""
    for _ in range(size):
        with store.write() as s:
            found = claim_next(s, now=now, lease=lease)
            if found is None:
                return False
            mail, resent = Claimed.of(found[0]), found[1]
        report.resent += resent
        outcome = await deliver(transport, mail, policy)
        with store.write() as s:
            _record(s, settings, mail, outcome, now, policy, report)
        if isinstance(outcome.error, ServerDown):
            report.stopped = str(outcome.error)
            return False
    return True


def _due(store: Store, now: datetime) -> int:
    """Mails a pass at ``now`` would claim: pending (or left ``sending`` by a stopped sender) and due."""
    with store.read() as s:
        return s.scalar(select(func.count()).select_from(OutgoingMail).where(*outbox_due(now))) or 0


def send_outbox_sync(store: Store, settings: Settings, *, now: datetime | None = None,
                     transport: Transport | None = None, policy: RetryPolicy = DEFAULT_POLICY,
                     limit: int | None = None) -> SendReport:
    """:func:`send_outbox` for callers without an event loop (the CLI, the tick)."""
    return asyncio.run(send_outbox(store, settings, now=now, transport=transport, policy=policy, limit=limit))


def _record(s: Session, settings: Settings, mail: Claimed, outcome: Outcome, now: datetime, policy: RetryPolicy,
            report: SendReport) -> None:
    err = outcome.error
    to = ", ".join(mail.recipients)
    if err is None:
        row = mark_sent(s, mail.id, now=now)
        report.sent += 1
        log.info("sent %s to %s", mail.message_id, to)
        if outcome.refused:
            why = "; ".join(f"{a}: {e}" for a, e in outcome.refused.items())
            row.last_error = f"refused for some recipients: {why}"
            report.errors.append(f"{mail.message_id}: {row.last_error}")
            report.notices += _tell_gm(s, settings, row, row.last_error, now)
        return
    report.errors.append(f"{mail.message_id} to {to}: {err}")
    if isinstance(err, PermanentError) or now - mail.created_at >= policy.give_up_after:
        why = str(err) if isinstance(err, PermanentError) else \
            f"not delivered after {mail.attempts} attempts since {mail.created_at:%Y-%m-%d %H:%M} UTC: {err}"
        row = mark_failed(s, mail.id, why)
        report.failed += 1
        log.warning("failed %s to %s: %s", mail.message_id, to, why)
        report.notices += _tell_gm(s, settings, row, why, now)
        return
    retry_at = now + policy.next_try(mail.attempts)
    mark_retry(s, mail.id, str(err), retry_at)
    report.postponed += 1
    log.info("postponed %s to %s until %s: %s", mail.message_id, to, retry_at.isoformat(), err)


# -- telling the GM --------------------------------------------------------------------------------------------
def _tell_gm(s: Session, settings: Settings, mail: OutgoingMail, why: str, now: datetime) -> int:
    """Queue a mail to the GM about ``mail`` (in this transaction). 1 if one was queued, else 0."""
    if mail.kind == KIND_FAILURE:
        return 0  # a notice that could not reach the GM is not reported to the GM
    game = s.get(Game, mail.game_id) if mail.game_id is not None else None
    gm = (game.gm_address if game is not None else None) or settings.gm_address
    if not gm:
        log.warning("no GM address to tell about %s", mail.message_id)
        return 0
    player = s.get(Player, mail.player_id) if mail.player_id is not None else None
    outbound.use(s, settings)   # the outbound policy knows the installation's GM
    enqueue_mail(s, failure_notice(settings, mail, why, gm, now, game=game, player=player), kind=KIND_FAILURE,
                 recipients=[gm], sender=settings.referee_address, game=game, turn_number=mail.turn_number, now=now)
    return 1


def failure_notice(settings: Settings, mail: OutgoingMail, why: str, gm: str, now: datetime, *,
                   game: Game | None = None, player: Player | None = None) -> EmailMessage:
    """The mail that tells the GM a mail could not be delivered; one per failed mail (stable Message-ID)."""
    digest = hashlib.sha256(mail.message_id.encode()).hexdigest()[:20]
    about = []
    if game is not None:
        about.append(f"game {game.code}" + (f", turn {mail.turn_number}" if mail.turn_number else ""))
    if player is not None:
        about.append(f"robot {player.robot}")
    lines = [
        "A mail from the referee could not be delivered.",
        "",
        f"  to:        {', '.join(str(r) for r in mail.recipients)}",
        f"  subject:   {mail.subject}",
        *([f"  about:     {'; '.join(about)}"] if about else []),
        f"  kind:      {mail.kind}",
        f"  queued:    {mail.created_at:%Y-%m-%d %H:%M} UTC; tries: {mail.attempts}",
        f"  error:     {why}",
        f"  outbox id: {mail.id}",
        "",
    ]
    if mail.status == "failed":
        lines += ["It will not be tried again. Once the cause is fixed, 'referee outbox retry "
                  f"{mail.id}' sends it again.", ""]
    msg = EmailMessage()
    msg["From"] = formataddr((settings.referee_name, settings.referee_address))
    msg["To"] = gm
    msg["Subject"] = f"[GM] undeliverable: {mail.subject}"[:200]
    msg["Message-ID"] = f"<failed.{digest}@{settings.domain}>"
    msg["Date"] = format_datetime(now)
    for name, value in outgoing_headers(settings.referee_address, game=game.code if game else None,
                                        reply=False).items():
        msg[name] = value
    msg.set_content("\n".join(lines))
    return msg


def requeue(s: Session, ids: Sequence[int], *, now: datetime | None = None) -> list[int]:
    """Put failed or cancelled mails back to ``pending`` (due now). Returns the ids that were."""
    now = now or utcnow()
    rows = s.scalars(select(OutgoingMail).where(OutgoingMail.id.in_(list(ids)),
                                                OutgoingMail.status.in_(("failed", "cancelled")))
                     .with_for_update())
    done = []
    for m in rows:
        m.status, m.next_attempt_at = "pending", now
        done.append(m.id)
    return sorted(done)
