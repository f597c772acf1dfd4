"""How many answers the referee sends, and to whom: counters over the last hour.

Whether an answer goes is the outbound policy's to decide (:mod:`referee.store.outbound`, which counts
``answers_per_hour`` under the same marks); here are the intake's own counters. Every answer to a mail is
counted (table ``intake_marks``) under the address it goes to and under
the sender of the mail it answers, each as :func:`referee.mailparse.senders.limit_key` reads it (lower
case, no quotes, no ``+tag``, the display name ignored), so neither a forged From nor a long name
nor a quoted local part escapes the count:

- at most ``answers_per_hour`` answers of any kind (HELP, STATUS, errors, GM answers) to one
  address, and for one sender's mails;
- at most ``error_replies_per_hour`` error answers to one address; refused mails that look forged
  (the envelope sender's domain is not the From's) are counted apart, so forgeries in a player's
  name never use up the answers to her own mistakes;
- the first error answer held back in an hour is replaced by one notice to the player ("further
  errors this hour are not answered") and one to the GM;
- a player's own mail with a valid key whose orders were taken or were stale is always answered
  (``exempt``): the limits never hide an "orders accepted" or "stale orders" answer; nor the answer
  to a GM command mail with the right key.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ..common.config import Settings
from ..mailparse.senders import limit_key, sender_address
from ..store.mail_models import IncomingMail, IntakeMark

WINDOW = timedelta(hours=1)
#: counter kinds
ANSWER, ASKED, ERROR, FORGED, NOTICE, WRONG_KEY, ORDERS = (
    "answer", "asked", "error", "forged", "notice", "wrong_key", "orders")


def count(s: Session, kind: str, key: str, now: datetime, window: timedelta = WINDOW) -> int:
    return s.scalar(select(func.count(IntakeMark.id)).where(IntakeMark.kind == kind, IntakeMark.key == key,
                                                            IntakeMark.at > now - window)) or 0


def mark(s: Session, kind: str, key: str, now: datetime, incoming: IncomingMail | None = None) -> None:
    s.add(IntakeMark(kind=kind, key=key[:400], at=now, incoming_mail_id=incoming.id if incoming else None))
    s.flush()


def has_room(s: Session, settings: Settings, to: str, sender: str | None, now: datetime) -> bool:
    """Whether the outbound policy would let one more answer go under ``answers_per_hour`` (nothing is
    counted; :func:`referee.store.outbound.decide` counts under the same marks)."""
    cap = settings.answers_per_hour
    if count(s, ANSWER, limit_key(to), now) >= cap:
        return False
    return not sender or count(s, ASKED, limit_key(sender), now) < cap


def may_answer_error(s: Session, settings: Settings, to: str, now: datetime, *, forged: bool = False) -> bool:
    """Whether one more error answer may go to ``to`` (forgeries counted apart); if so it is counted."""
    kind = FORGED if forged else ERROR
    key = limit_key(to)
    if count(s, kind, key, now) >= settings.error_replies_per_hour:
        return False
    mark(s, kind, key, now)
    return True


def first_held_back(s: Session, to: str, now: datetime) -> bool:
    """True once an hour per address: the moment to tell the player (and the GM) that errors go unanswered."""
    key = limit_key(to)
    if count(s, NOTICE, key, now) > 0:
        return False
    mark(s, NOTICE, key, now)
    return True


def envelope_sender(return_paths: tuple[str, ...]) -> str | None:
    """The envelope sender the receiving server wrote into Return-Path (None: none, or the null sender)."""
    for value in return_paths:
        found = sender_address(value)
        if found:
            return found
    return None


def looks_forged(sender: str, return_paths: tuple[str, ...]) -> str | None:
    """The envelope sender when it is not of the From's domain (nor a sub- or parent domain of it),
    which is how a mail in someone else's name usually arrives; else None."""
    envelope = envelope_sender(return_paths)
    if envelope is None:
        return None
    a, b = envelope.rpartition("@")[2], sender.rpartition("@")[2]
    if a == b or a.endswith("." + b) or b.endswith("." + a):
        return None
    return envelope
