"""Mail loops through the referee's own answers, and orders sent twice.

An "orders accepted" answer carries a valid ``BEGIN ... key ... END`` block (so that a player can
correct it and send it back). An autoresponder that pastes a mail back unquoted, without the
headers robots should set, would have those orders taken and answered again, forever. Three guards:

- **Our own Message-ID.** A mail that carries the Message-ID of a mail the referee sent is that mail
  come back, and is ignored (as is one with our ``X-Loop``, by :func:`referee.orders.loop_reason`).
- **The answer marker.** Every answer starts with a marker line (:func:`marker_line`) naming the
  answer, then its own first words ("Orders accepted for ...", which count as a marker too).
  When that line comes back unquoted, only the text above it is read: a mail that is our
  answer and nothing else is ignored, a reply written above a pasted answer still counts.
- **Orders taken once.** Orders that change nothing on file for the robot, arriving within
  :data:`REPEAT_WINDOW` of the last ones taken for it, which they repeat, are not taken or
  answered again.
"""

from __future__ import annotations

import hashlib
import re
from datetime import datetime, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..orders.reply_model import ANSWER_START
from ..store.models import IncomingMail, IntakeMark, OutgoingMail
from . import limits

REPEAT_WINDOW = timedelta(minutes=30)
_MARKER = re.compile(r"^[ \t]*\[referee answer ([0-9a-f]{12})\b[^\n]*\][ \t]*$", re.MULTILINE)


def marker_line(message_id: str) -> str:
    """The first line of every answer: ``[referee answer 1a2b3c4d5e6f - not orders, do not send back]``."""
    digest = hashlib.sha256(message_id.encode("utf-8", "surrogatepass")).hexdigest()[:12]
    return f"[referee answer {digest} - not orders, do not send back]"


def before_marker(body: str) -> str | None:
    """The text above an answer marker that came back unquoted (or, the marker cut off, above the first
    line of an answer of ours: "Orders accepted for ...", see :data:`referee.orders.reply_model.ANSWER_START`);
    None when there is no such line."""
    m = _MARKER.search(body) or ANSWER_START.search(body)
    return None if m is None else body[: m.start()]


def our_own(s: Session, message_id: str | None) -> bool:
    """Whether a mail carries the Message-ID of a mail the referee sent (it came back as it was)."""
    if not message_id or len(message_id) > 998 or not message_id.isascii():   # ours are plain ASCII
        return False
    return s.scalar(select(OutgoingMail.id).where(OutgoingMail.message_id == message_id).limit(1)) is not None


def last_taken(s: Session, player_id: int, now: datetime) -> str | None:
    """The digest of the last orders taken for this robot within :data:`REPEAT_WINDOW`, if any
    (:func:`referee.games.taking.filed_digest`)."""
    key = s.scalars(select(IntakeMark.key).where(IntakeMark.kind == limits.ORDERS,
                                                 IntakeMark.key.like(f"{player_id}:%"),
                                                 IntakeMark.at > now - REPEAT_WINDOW)
                    .order_by(IntakeMark.id.desc()).limit(1)).first()
    return key.partition(":")[2] if key else None


def remember(s: Session, player_id: int, digest: str, now: datetime, incoming: IncomingMail) -> None:
    limits.mark(s, limits.ORDERS, f"{player_id}:{digest}", now, incoming)
