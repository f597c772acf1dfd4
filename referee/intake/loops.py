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
- **Replies with nothing new** (issue 41, any autoresponder): a mail whose own text holds no order,
  command or question (:func:`content_free`) and which quotes or answers one of our answers gets at
  most :data:`CONTENT_FREE_ANSWERS` answer per thread (:func:`thread_of`: the sender and the first
  answer of ours in the chain) in :data:`CONTENT_FREE_WINDOW`; the others are recorded ``ignored``,
  never answered and never put in a digest, so no digest restarts the loop (:func:`answer_once`).
"""

from __future__ import annotations

import hashlib
import re
from datetime import datetime, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..mailparse.senders import limit_key
from ..orders import MailText, read_orders
from ..orders.community import read_commands
from ..orders.extract import extract, find_gm_begin
from ..orders.reply_model import ANSWER_START
from ..store.mail_models import IncomingMail, IntakeMark, OutgoingMail
from . import limits

REPEAT_WINDOW = timedelta(minutes=30)
#: a reply with nothing new quoting our answer: this many answers per thread in this window
CONTENT_FREE_ANSWERS = 1
CONTENT_FREE_WINDOW = timedelta(days=1)
#: counter kinds: a content-free reply seen (its key names the thread), and one answered
LOOP_SEEN, LOOP_ANSWERED = "loop_seen", "loop_answered"
#: what our answers are (``OutgoingMail.kind``), as against turn mails and notices
ANSWER_KINDS = ("echo", "rejection", "answer", "echo_copy", "digest", "stranger", "community")
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


def content_free(text: str) -> bool:
    """Whether a mail's own text holds no order, no command and no question (a robot's "ticket logged")."""
    if "?" in text or find_gm_begin(text) is not None:
        return False
    # a line of signs only (Outlook on the web writes "* * *" for a rule) says nothing
    text = "\n".join(line for line in text.splitlines() if any(ch.isalnum() for ch in line))
    found, result = read_orders(text)
    prose = {n for n, _ in result.ignored}
    if found.header is not None or any(line.strip() and n not in prose for n, line in found.lines):
        return False   # a line the order language read (an order, or a mistake in one)
    return read_commands(found.lines) is None and read_commands(extract(text).lines) is None


def answers_ours(s: Session, mail: MailText) -> OutgoingMail | None:
    """The answer of ours (not a turn mail or notice) this mail replies to, if any."""
    ids = [i for i in ([mail.in_reply_to] if mail.in_reply_to else []) + list(reversed(mail.references))
           if i and len(i) <= 998 and i.isascii()][:20]
    if not ids:
        return None
    rows = {m.message_id: m for m in s.scalars(select(OutgoingMail).where(OutgoingMail.message_id.in_(ids)))}
    return next((rows[i] for i in ids if i in rows and rows[i].kind in ANSWER_KINDS), None)


def thread_of(s: Session, sender: str, ours: OutgoingMail | None, subject: str) -> str:
    """The key of a thread of content-free replies: the sender, and the first answer of ours in the chain
    (an answer to a content-free reply belongs to that reply's thread); with no answer of ours known,
    the subject without its ``Re:`` and ``[...]`` tags."""
    if ours is None:
        root = "subject:" + re.sub(r"(?i)\b(re|aw|antw|fwd?|wg|sv)\s*:|\[[^\]]*\]|\s+", "", subject)[:200]
    else:
        root = ours.message_id
        if ours.in_reply_to_id is not None:
            seen = s.scalars(select(IntakeMark.key).where(IntakeMark.kind == LOOP_SEEN,
                                                          IntakeMark.incoming_mail_id == ours.in_reply_to_id)
                             .limit(1)).first()
            if seen is not None:
                return seen
    digest = hashlib.sha256(root.encode("utf-8", "surrogatepass")).hexdigest()[:24]
    return f"{limit_key(sender)[:300]}|{digest}"


def answer_once(s: Session, thread: str, now: datetime, incoming: IncomingMail) -> bool:
    """Record a content-free reply in ``thread``; True when it may still be answered (the first today)."""
    limits.mark(s, LOOP_SEEN, thread, now, incoming)
    if limits.count(s, LOOP_ANSWERED, thread, now, CONTENT_FREE_WINDOW) >= CONTENT_FREE_ANSWERS:
        return False
    limits.mark(s, LOOP_ANSWERED, thread, now, incoming)
    return True
