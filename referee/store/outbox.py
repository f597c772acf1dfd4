"""The outbox: every mail the referee sends, from the moment it is decided until it is sent.

:func:`enqueue_mail` puts a rendered mail in the outbox (in the caller's transaction, e.g. with the turn it
reports); :func:`claim_outbox` leases due mails to a sender, which then calls :func:`mark_sent`,
:func:`mark_retry` or :func:`mark_failed`. A sender that dies holding a lease loses it when the lease runs out,
and the mail is sent again (same Message-ID), counted in its ``resends`` (:func:`claim_next`).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from email.utils import getaddresses, parseaddr
from typing import Any

from sqlalchemy import bindparam, select, update
from sqlalchemy.orm import Session

from . import outbound
from .errors import InvalidValue, NotFound
from .locking import require_write
from .mail import header_text, oldest_locked
from .mail_models import IncomingMail, OutgoingMail
from .models import Game, Player
from .msgids import stamp_and_serialise
from .types import utcnow

DEFAULT_LEASE = timedelta(minutes=10)
log = logging.getLogger("referee.store")


def enqueue_mail(s: Session, message: EmailMessage | bytes, *, kind: str, recipients: list[str] | None = None,
                 sender: str | None = None, game: Game | None = None, player: Player | None = None,
                 turn_number: int | None = None, in_reply_to: IncomingMail | None = None, held: bool = False,
                 now: datetime | None = None, decided: bool = False) -> OutgoingMail:
    """Put a rendered mail in the outbox. It must carry a Message-ID, which is replaced by the one sent
    (:func:`referee.store.msgids.stamp`: this installation's, tied to the content); queueing the same mail
    again returns the row already queued (so a retried transaction never sends a mail twice).

    ``recipients`` default to the To, Cc and Bcc addresses, ``sender`` to the From address; a Bcc
    header is not kept in the stored mail. ``held``: waits for :func:`release_held` (hold for review).
    ``decided``: the caller asked the outbound policy already (:func:`referee.store.outbound.decide`).
    """
    return enqueue_mails(s, [Outgoing(message, kind=kind, recipients=recipients, sender=sender, game=game,
                                      player=player, turn_number=turn_number, in_reply_to=in_reply_to,
                                      held=held, decided=decided)], now=now)[0]


@dataclass(slots=True)
class Outgoing:
    """A mail to queue with :func:`enqueue_mails`, and what :func:`enqueue_mail` is told about it."""

    message: EmailMessage | bytes
    kind: str
    recipients: list[str] | None = None
    sender: str | None = None
    game: Game | None = None
    player: Player | None = None
    turn_number: int | None = None
    in_reply_to: IncomingMail | None = None
    held: bool = False
    #: the caller asked the outbound policy already; else :func:`enqueue_mails` asks it
    decided: bool = False


def enqueue_mails(s: Session, mails: Sequence[Outgoing], *, now: datetime | None = None) -> list[OutgoingMail]:
    """:func:`enqueue_mail` for each of ``mails`` in turn (the rows in the same order), with one query for
    the mails already queued and one flush for all (e.g. the five mails of a turn).

    Every mail passes the outbound policy (:mod:`referee.store.outbound`): a mail no caller decided is decided
    here; one it refuses is kept ``cancelled``, never sent, with the reason in ``last_error``."""
    require_write(s)
    now = now or utcnow()
    stamped = [_stamped(s, m) for m in mails]
    ids = list(dict.fromkeys(message_id for message_id, _, _ in stamped))
    queued = {m.message_id: m for m in s.scalars(_QUEUED, {"ids": ids})}
    out = []
    for m, (message_id, raw, parsed) in zip(mails, stamped, strict=True):
        found = queued.get(message_id)
        if found is None:
            found = queued[message_id] = _new_row(m, message_id, raw, parsed, now)
            refused = None if m.decided else _policy(s, m, found, now)
            if refused:
                found.status, found.last_error = "cancelled", f"refused by the outbound policy: {refused}"
            s.add(found)
        out.append(found)
    if any(row.id is None for row in out):
        s.flush()
    return out


def _policy(s: Session, mail: Outgoing, row: OutgoingMail, now: datetime) -> str | None:
    """Ask the outbound policy about a mail no caller decided; why it is refused, or None. A mail it would
    hold into a digest goes (only the intake and the notices write digests)."""
    asked_by = mail.in_reply_to.from_addr if mail.in_reply_to is not None else None
    player = mail.player
    for to in row.recipients:
        hers = player is not None and player.status == "active" and player.email == str(to).lower()
        decision = outbound.decide(s, outbound.Request(row.kind, str(to), asked_by=asked_by,
                                                       recipient=outbound.PLAYER if hers else None),
                                   now, mail.in_reply_to)
        if decision.action == outbound.REFUSE:
            return decision.reason
    return None


#: the outbox rows of some Message-IDs (built once: a statement costs more to build than to run)
_QUEUED = select(OutgoingMail).where(OutgoingMail.message_id.in_(bindparam("ids", expanding=True)))


def _stamped(s: Session, mail: Outgoing) -> tuple[str, bytes, EmailMessage]:
    """(the Message-ID sent, the bytes sent, the mail as given) of a mail about to be queued."""
    message = mail.message
    if isinstance(message, bytes):
        message = BytesParser(policy=policy.default).parsebytes(message)  # type: ignore[assignment]
    assert isinstance(message, EmailMessage)
    parsed = message
    if message.get("Bcc") is not None:
        message = _without_bcc(message)
    if not header_text(message, "Message-ID", 998):
        raise InvalidValue("an outgoing mail needs a Message-ID")
    message_id, raw = stamp_and_serialise(s, message)
    return message_id, raw, parsed


def _new_row(mail: Outgoing, message_id: str, raw: bytes, parsed: EmailMessage, now: datetime) -> OutgoingMail:
    recipients, sender = mail.recipients, mail.sender
    if recipients is None:
        fields = [str(v) for name in ("To", "Cc", "Bcc") for v in parsed.get_all(name) or []]
        recipients = [addr for _, addr in getaddresses(fields) if addr]
    if not recipients:
        raise InvalidValue(f"outgoing mail {message_id} has no recipients")
    if sender is None:
        sender = parseaddr(str(parsed.get("From") or ""))[1]
    if not sender:
        raise InvalidValue(f"outgoing mail {message_id} has no sender")
    game, player, in_reply_to = mail.game, mail.player, mail.in_reply_to
    return OutgoingMail(message_id=message_id, kind=mail.kind, sender=sender, recipients=list(recipients),
                        subject=header_text(parsed, "Subject", 2000) or "", raw=raw,
                        status="held" if mail.held else "pending", attempts=0, created_at=now, next_attempt_at=now,
                        game_id=game.id if game else None, player_id=player.id if player else None,
                        turn_number=mail.turn_number, in_reply_to_id=in_reply_to.id if in_reply_to else None)


def _without_bcc(message: EmailMessage) -> EmailMessage:
    import copy

    clone = copy.deepcopy(message)
    del clone["Bcc"]
    return clone


def claim_outbox(s: Session, *, now: datetime | None = None, limit: int = 20,
                 lease: timedelta = DEFAULT_LEASE) -> list[OutgoingMail]:
    """Due mails for one sender: ``pending`` ones whose time has come and ``sending`` ones whose lease
    ran out. Each becomes ``sending`` with a lease until ``now + lease``. Commit, send, then mark."""
    return [m for m, _ in _claim(s, now or utcnow(), limit, lease)]


def claim_next(s: Session, *, now: datetime | None = None,
               lease: timedelta = DEFAULT_LEASE) -> tuple[OutgoingMail, bool] | None:
    """The next due mail, claimed as by :func:`claim_outbox`, and whether it was found ``sending``: a
    sender stopped after marking it, perhaps after the server took it, so it may arrive twice (same
    Message-ID). Such a claim counts in the mail's ``resends``. None: nothing is due."""
    found = _claim(s, now or utcnow(), 1, lease)
    return found[0] if found else None


def outbox_due(now: datetime) -> tuple[Any, ...]:
    """The conditions of a mail a sender may claim at ``now``: ``pending`` and its time come, or left
    ``sending`` by a stopped sender whose lease ran out."""
    return OutgoingMail.status.in_(("pending", "sending")), OutgoingMail.next_attempt_at <= now


def _claim(s: Session, now: datetime, limit: int, lease: timedelta) -> list[tuple[OutgoingMail, bool]]:
    require_write(s)
    claimed = []
    for m in oldest_locked(s, OutgoingMail, *outbox_due(now), limit=limit):
        resent = m.status == "sending"
        if resent:
            m.resends += 1
            log.warning("outgoing mail %s %s was left 'sending' by a sender that stopped: sending it again "
                        "(a possible duplicate, same Message-ID)", m.id, m.message_id)
        m.status = "sending"
        m.attempts += 1
        m.next_attempt_at = now + lease
        claimed.append((m, resent))
    return claimed


def _outgoing(s: Session, mail: OutgoingMail | int) -> OutgoingMail:
    require_write(s)
    mail_id = mail.id if isinstance(mail, OutgoingMail) else mail
    found = s.get(OutgoingMail, mail_id, with_for_update=True, populate_existing=True)
    if found is None:
        raise NotFound(f"no outgoing mail {mail_id}")
    return found


def mark_sent(s: Session, mail: OutgoingMail | int, *, now: datetime | None = None) -> OutgoingMail:
    m = _outgoing(s, mail)
    m.status, m.sent_at, m.last_error = "sent", now or utcnow(), None
    return m


def mark_retry(s: Session, mail: OutgoingMail | int, error: str, retry_at: datetime) -> OutgoingMail:
    """A temporary failure: back to ``pending`` until ``retry_at``."""
    m = _outgoing(s, mail)
    m.status, m.last_error, m.next_attempt_at = "pending", error, retry_at
    return m


def mark_failed(s: Session, mail: OutgoingMail | int, error: str) -> OutgoingMail:
    """A permanent failure: never retried (the GM is told by whoever calls this)."""
    m = _outgoing(s, mail)
    m.status, m.last_error = "failed", error
    return m


def release_held(s: Session, game: Game, turn_number: int | None = None, *, now: datetime | None = None) -> int:
    """Send the mails held for review (for one turn, or all of the game's). Returns how many."""
    stmt = (update(OutgoingMail).where(OutgoingMail.game_id == game.id, OutgoingMail.status == "held")
            .values(status="pending", next_attempt_at=now or utcnow()))
    if turn_number is not None:
        stmt = stmt.where(OutgoingMail.turn_number == turn_number)
    return s.execute(stmt).rowcount or 0
