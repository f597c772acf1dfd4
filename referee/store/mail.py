"""Incoming mail, once-only notices and the service's own state (the outbox is :mod:`.outbox`).

Incoming: :func:`record_incoming` stores a mail raw, with its IMAP identity, exactly once (the
same mailbox/UIDVALIDITY/UID, the same Message-ID, or, for a mail without one, the same bytes,
give back the row already stored); :mod:`referee.store.incoming_batch` does the same for a batch.
The poller commits that, then moves the mail on the server and calls :func:`mark_moved`.
Processing is a second step: :func:`claim_incoming` hands out ``new`` mails (``FOR UPDATE SKIP
LOCKED`` on PostgreSQL, so workers never take the same one), and :func:`set_outcome` records what
was made of each. :func:`reprocess` puts mails back to ``new`` (after a parser fix).
"""

from __future__ import annotations

import hashlib
import logging
from datetime import datetime
from email import policy
from email.message import Message
from email.parser import BytesHeaderParser
from typing import Any, TypeVar

from sqlalchemy import bindparam, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ..mailparse.senders import sender_address
from ..mailparse.unreadable import why_unreadable
from .errors import InvalidValue
from .locking import require_write
from .mail_models import INCOMING_OUTCOMES, IncomingMail, OutgoingMail
from .models import Game, Player, ServiceState, Turn, TurnNotice
from .types import utcnow

_Mail = TypeVar("_Mail", IncomingMail, OutgoingMail)

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
    keys = s.scalars(_NOTICES, {"turn": turn.id, "kind": kind})
    return {int(k) if k else None for k in keys}


#: the statement of :func:`notices` (asked as every due turn's transaction ends), built once
_NOTICES = select(TurnNotice.player_key).where(TurnNotice.turn_id == bindparam("turn"),
                                                TurnNotice.kind == bindparam("kind"))


def notice_keys(s: Session, turn: Turn, *kinds: str) -> set[str]:
    """The keys (``player_key``) of the notices of these kinds recorded for this turn."""
    return set(s.scalars(select(TurnNotice.player_key).where(TurnNotice.turn_id == turn.id,
                                                             TurnNotice.kind.in_(kinds))))


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
