"""Mail is not kept forever: after ``retention_days`` a stored mail no live game needs is reduced to
its header and what was made of it (outcome, reason, size, digest).

Reduced (by :func:`purge_old_mail`, run by every ``referee tick``):

- mail that was ``ignored``: strangers, loops, bounces, auto-replies, the referee's own mail;
- any mail about a game that is ``finished``.

Kept whole: mail still ``new`` or in ``error`` (it may be processed again), and every other mail
about a game that is not finished (its orders, its players' questions) or about no game at all
(GM commands carry no game). ``retention_days = 0`` keeps everything.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from ..common.config import Settings
from .locking import require_write
from .mail import oldest_locked
from .mail_models import IncomingMail
from .models import Game

log = logging.getLogger("referee.store.retention")

#: mails reduced per transaction (a tick after a long time does the rest next time)
BATCH = 200


def header_of(raw: bytes) -> bytes:
    """The header of a raw mail, up to and including the blank line that ends it."""
    for sep in (b"\r\n\r\n", b"\n\n"):
        at = raw.find(sep)
        if at >= 0:
            return raw[:at + len(sep)]
    return raw


def purgeable(s: Session, cutoff: datetime, limit: int = BATCH) -> list[IncomingMail]:
    """Mails received before ``cutoff`` that the rule above reduces, not yet reduced, oldest first."""
    finished = select(Game.id).where(Game.status == "finished")
    return oldest_locked(s, IncomingMail, IncomingMail.purged_at.is_(None), IncomingMail.received_at < cutoff,
                         IncomingMail.outcome.not_in(("new", "error")),
                         or_(IncomingMail.outcome == "ignored", IncomingMail.game_id.in_(finished)), limit=limit)


def purge_old_mail(s: Session, settings: Settings, *, now: datetime, limit: int = BATCH) -> int:
    """Reduce up to ``limit`` mails older than ``retention_days`` to their header. Returns how many."""
    require_write(s)
    if settings.retention_days <= 0:
        return 0
    mails = purgeable(s, now - timedelta(days=settings.retention_days), limit)
    for mail in mails:
        mail.raw = header_of(mail.raw)
        mail.purged_at = now
    if mails:
        log.info("retention: %d mail(s) older than %d days reduced to their header", len(mails),
                 settings.retention_days)
    return len(mails)
