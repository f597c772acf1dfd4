"""Incoming mail, the outbox, once-only notices and the service's own state.

Incoming: :func:`record_incoming` stores a mail raw, with its IMAP identity, exactly once (the
same mailbox/UIDVALIDITY/UID, the same Message-ID, or, for a mail without one, the same bytes,
give back the row already stored); :mod:`referee.store.incoming_batch` does the same for a batch.
The poller commits that, then moves the mail on the server and calls :func:`mark_moved`.
Processing is a second step: :func:`claim_incoming` hands out ``new`` mails (``FOR UPDATE SKIP
LOCKED`` on PostgreSQL, so workers never take the same one), and :func:`set_outcome` records what
was made of each. :func:`reprocess` puts mails back to ``new``
(after a parser fix).

Outgoing: :func:`enqueue_mail` puts a rendered mail in the outbox (in the caller's transaction,
e.g. with the turn it reports); :func:`claim_outbox` leases due mails to a sender, which then
calls :func:`mark_sent`, :func:`mark_retry` or :func:`mark_failed`. A sender that dies holding a
lease loses it when the lease runs out, and the mail is sent again (same Message-ID), counted in its
``resends`` (:func:`claim_next`).
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from email import policy
from email.message import EmailMessage, Message
from email.parser import BytesHeaderParser, BytesParser
from email.utils import getaddresses, parseaddr
from typing import Any, TypeVar

from sqlalchemy import bindparam, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ..mailparse.senders import sender_address
from ..mailparse.unreadable import why_unreadable
from . import outbound
from .errors import InvalidValue, NotFound
from .locking import require_write
from .mail_models import INCOMING_OUTCOMES, IncomingMail, OutgoingMail
from .models import Game, Player, ServiceState, Turn, TurnNotice
from .msgids import stamp_and_serialise
from .types import utcnow

_Mail = TypeVar("_Mail", IncomingMail, OutgoingMail)

DEFAULT_LEASE = timedelta(minutes=10)
log = logging.getLogger("referee.store")


# -- incoming --------------------------------------------------------------------------------------
def parsed_headers(raw: bytes) -> Message:
    """The headers of a raw mail, read leniently (the standard library's compat32 parser)."""
    return BytesHeaderParser(policy=policy.compat32).parsebytes(raw)


def header_text(msg: Message, name: str, limit: int) -> str | None:
    """Header ``name`` as text of at most ``limit`` characters; None when absent or unreadable."""
    try:
        value = msg.get(name)
    except Exception:  # a header the parser cannot even hold: it is in the raw mail anyway
        return None
    if value is None:
        return None
    # a NUL is no text: PostgreSQL refuses it in a text column (the raw mail keeps the header as sent)
    text = " ".join(str(value).replace("\x00", "").split())
    return text[:limit] or None


def stored_fields(raw: bytes) -> tuple[str | None, str | None, str | None, str | None]:
    """(Message-ID, From, Subject, why the headers are unreadable) of a mail about to be stored. Never
    raises: a mail whose headers no parser can read is stored all the same, as ``unreadable``."""
    try:
        headers = parsed_headers(raw)
        return (header_text(headers, "Message-ID", 998), header_text(headers, "From", 2000),
                header_text(headers, "Subject", 2000), why_unreadable(raw))
    except Exception as exc:   # a recursion bomb or worse: kept raw, never processed
        return None, None, None, f"the headers could not be read ({type(exc).__name__})"


def record_incoming(s: Session, raw: bytes, *, source: str, mailbox: str | None = None,
                    uidvalidity: int | None = None, uid: int | None = None,
                    now: datetime | None = None) -> tuple[IncomingMail, bool]:
    """Store a mail as received, once. Returns (the row, whether it is new).

    ``mailbox`` must name the folder uniquely across every account the referee reads (e.g.
    ``referee@example.org/INBOX``). The Message-ID, sender and subject are read from the headers
    for lookups; the raw bytes are kept unchanged.
    """
    require_write(s)
    now = now or utcnow()
    identity = mailbox is not None and uidvalidity is not None and uid is not None
    if identity:
        found = s.scalars(select(IncomingMail).where(IncomingMail.mailbox == mailbox,
                                                     IncomingMail.uidvalidity == uidvalidity,
                                                     IncomingMail.uid == uid)).one_or_none()
        if found is not None:
            return found, False
    message_id, from_header, subject, unreadable = stored_fields(raw)
    digest = hashlib.sha256(raw).hexdigest()
    found = _find_duplicate(s, message_id, digest)
    if found is not None:
        return found, False
    mail = IncomingMail(source=source, mailbox=mailbox, uidvalidity=uidvalidity, uid=uid, message_id=message_id,
                        sha256=digest, raw=raw, size=len(raw), from_addr=sender_address(from_header),
                        subject=subject, received_at=now, outcome="unreadable" if unreadable else "new",
                        reason=unreadable, processed_at=now if unreadable else None, attempts=0)
    try:
        with s.begin_nested():
            s.add(mail)
    except IntegrityError:
        # another process stored the same mail a moment ago
        found = _find_duplicate(s, message_id, digest)
        if found is None and identity:
            found = s.scalars(select(IncomingMail).where(IncomingMail.mailbox == mailbox,
                                                         IncomingMail.uidvalidity == uidvalidity,
                                                         IncomingMail.uid == uid)).one_or_none()
        if found is None:
            raise
        return found, False
    return mail, True


def _find_duplicate(s: Session, message_id: str | None, digest: str) -> IncomingMail | None:
    if message_id is not None:
        return s.scalars(select(IncomingMail).where(IncomingMail.message_id == message_id)).one_or_none()
    return s.scalars(select(IncomingMail).where(IncomingMail.sha256 == digest, IncomingMail.message_id.is_(None))
                     .order_by(IncomingMail.id).limit(1)).one_or_none()


def known_uids(s: Session, mailbox: str, uidvalidity: int) -> set[int]:
    """UIDs of ``mailbox`` (at this UIDVALIDITY) already stored."""
    rows = s.scalars(select(IncomingMail.uid).where(IncomingMail.mailbox == mailbox,
                                                    IncomingMail.uidvalidity == uidvalidity))
    return {int(u) for u in rows if u is not None}


def unmoved(s: Session, mailbox: str) -> list[IncomingMail]:
    """Mails stored from ``mailbox`` but not yet moved on the server (a crash came in between)."""
    return list(s.scalars(select(IncomingMail).where(IncomingMail.mailbox == mailbox,
                                                     IncomingMail.moved_at.is_(None)).order_by(IncomingMail.id)))


def mark_moved(s: Session, mail: IncomingMail | int, *, now: datetime | None = None) -> None:
    mail_id = mail.id if isinstance(mail, IncomingMail) else mail
    s.execute(update(IncomingMail).where(IncomingMail.id == mail_id).values(moved_at=now or utcnow()))


def oldest_locked(s: Session, model: type[_Mail], *where: Any, limit: int) -> list[_Mail]:
    """Up to ``limit`` rows of a mail table matching ``where``, oldest (lowest id) first, locked for this
    transaction (``FOR UPDATE SKIP LOCKED`` on PostgreSQL, so concurrent workers get disjoint rows).

    The ids are chosen first and the rows read by id after: sorting whole rows would carry every match's
    ``raw`` bytes through the sort (on SQLite, 3 ms a claim with 500 turn mails due, growing with the outbox).
    """
    ids = list(s.scalars(select(model.id).where(*where).order_by(model.id).limit(limit)
                         .with_for_update(skip_locked=True)))
    if not ids:
        return []
    return list(s.scalars(select(model).where(model.id.in_(ids)).order_by(model.id)))


def claim_incoming(s: Session, *, limit: int = 50, outcomes: tuple[str, ...] = ("new",)) -> list[IncomingMail]:
    """Mails waiting to be processed, oldest first, locked for this transaction. Concurrent workers
    on PostgreSQL get disjoint batches; on SQLite the writer lock serialises them. Each claimed
    mail's ``attempts`` goes up by one."""
    require_write(s)
    mails = oldest_locked(s, IncomingMail, IncomingMail.outcome.in_(outcomes), limit=limit)
    for m in mails:
        m.attempts += 1
    return mails


def set_outcome(s: Session, mail: IncomingMail, outcome: str, reason: str | None = None, *,
                game: Game | None = None, player: Player | None = None, turn_number: int | None = None,
                now: datetime | None = None) -> IncomingMail:
    """Record what was made of a mail: ``accepted``, ``rejected`` (say why), ``ignored`` or ``error``."""
    if outcome not in INCOMING_OUTCOMES or outcome == "new":
        raise InvalidValue(f"outcome must be one of {', '.join(INCOMING_OUTCOMES[1:])}, not {outcome!r}")
    mail.outcome = outcome
    mail.reason = reason
    mail.processed_at = now or utcnow()
    if game is not None:
        mail.game_id = game.id
    if player is not None:
        mail.player_id = player.id
    if turn_number is not None:
        mail.turn_number = turn_number
    return mail


def reprocess(s: Session, *, outcome: str | None = "error", ids: list[int] | None = None) -> int:
    """Put mails back to ``new`` (those with ``outcome``, or those with the given ids). Returns how many.
    A mail reduced to its header by the retention rule is not: its body is gone."""
    stmt = (update(IncomingMail).where(IncomingMail.purged_at.is_(None))
            .values(outcome="new", reason=None, processed_at=None))
    if ids is not None:
        stmt = stmt.where(IncomingMail.id.in_(ids))
    elif outcome is not None:
        stmt = stmt.where(IncomingMail.outcome == outcome)
    return s.execute(stmt).rowcount or 0


# -- outgoing --------------------------------------------------------------------------------------
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


# -- once-only notices -------------------------------------------------------------------------------
def record_notice(s: Session, turn: Turn, kind: str, player: Player | None = None, *,
                  outgoing: OutgoingMail | None = None, now: datetime | None = None) -> bool:
    """Note that notice ``kind`` (``reminder``, ``late``, ``seat_open``...) went out for this turn (and
    player). Returns False, changing nothing, if it had been noted already."""
    require_write(s)
    key = str(player.id) if player is not None else ""
    exists = s.scalars(select(TurnNotice.id).where(TurnNotice.turn_id == turn.id, TurnNotice.kind == kind,
                                                   TurnNotice.player_key == key)).first()
    if exists is not None:
        return False
    try:
        with s.begin_nested():
            s.add(TurnNotice(turn_id=turn.id, kind=kind, player_key=key, sent_at=now or utcnow(),
                             outgoing_mail_id=outgoing.id if outgoing else None))
    except IntegrityError:
        return False
    return True


def notices(s: Session, turn: Turn, kind: str) -> set[int | None]:
    """Player ids (``None`` for whole-turn notices) already sent notice ``kind`` for this turn."""
    keys = s.scalars(select(TurnNotice.player_key).where(TurnNotice.turn_id == turn.id, TurnNotice.kind == kind))
    return {int(k) if k else None for k in keys}


# -- the service's own state ---------------------------------------------------------------------------
def get_state(s: Session, key: str) -> dict[str, Any] | None:
    row = s.get(ServiceState, key)
    return dict(row.value) if row is not None else None


def set_state(s: Session, key: str, value: dict[str, Any], *, now: datetime | None = None) -> None:
    require_write(s)
    row = s.get(ServiceState, key, with_for_update=True)
    if row is None:
        try:
            with s.begin_nested():
                s.add(ServiceState(key=key, value=value, updated_at=now or utcnow()))
            return
        except IntegrityError:  # inserted by another process meanwhile
            row = s.get(ServiceState, key, with_for_update=True, populate_existing=True)
            assert row is not None
    row.value, row.updated_at = value, now or utcnow()
