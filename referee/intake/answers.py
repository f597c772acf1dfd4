"""The mails the referee answers a player's (or the GM's) mail with (their words: :mod:`referee.messages`).

Every answer is a plain-text mail from the referee, threaded under the mail it answers
(In-Reply-To, References), with the loop-protection headers of an automatic reply and, when it is
about a player's robot, a Reply-To that carries the player's key (:mod:`referee.games.tokens`), so
that answering the answer just works. Its Message-ID is derived from the stored mail and the attempt,
so an answer is queued once per processing of a mail. Its first line is a marker
(:mod:`referee.intake.loops`) by which the answer is known when an autoresponder pastes it back.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from datetime import datetime
from email.message import EmailMessage
from email.utils import format_datetime, formataddr
from typing import TYPE_CHECKING

from ..common.config import Settings
from ..common.textsafe import strip_bidi
from ..messages.players import status_text, subject_for
from ..orders import MailText, outgoing_headers
from ..store.mail_models import IncomingMail
from ..store.models import Game
from .loops import marker_line

if TYPE_CHECKING:
    from ..render.mail import Picture

#: ``OutgoingMail.kind`` of the answers
KIND_ECHO, KIND_REJECTION, KIND_ANSWER, KIND_COPY, KIND_GM = "echo", "rejection", "answer", "echo_copy", "gm_answer"


def answer_id(settings: Settings, incoming: IncomingMail, kind: str, recipient: str) -> str:
    digest = hashlib.sha256(f"{incoming.id}\0{incoming.attempts}\0{kind}\0{recipient.lower()}".encode()).hexdigest()
    return f"<answer.{incoming.id}.{incoming.attempts}.{kind}.{digest[:12]}@{settings.domain}>"


def answer_mail(settings: Settings, incoming: IncomingMail, mail: MailText, *, kind: str, to: str, subject: str,
                body: str, now: datetime, game: Game | None = None, reply_to: str | None = None,
                pictures: Sequence[Picture] = ()) -> EmailMessage:
    """An answer to ``mail`` (stored as ``incoming``), ready for :func:`referee.store.outbox.enqueue_mail`.
    The answer is plain text; ``pictures`` (a PREVIEW's path) follow it as inline image attachments."""
    msg = EmailMessage()
    msg["From"] = formataddr((settings.referee_name, settings.referee_address)) if settings.referee_name \
        else settings.referee_address
    msg["To"] = to
    msg["Subject"] = strip_bidi(subject)
    msg["Date"] = format_datetime(now)
    msg["Message-ID"] = answer_id(settings, incoming, kind, to)
    if mail.message_id and _fit(mail.message_id, 900):
        msg["In-Reply-To"] = mail.message_id
        refs = [*[r for r in mail.references if _fit(r, 300)][-10:], mail.message_id]
        msg["References"] = " ".join(refs)
    for name, value in outgoing_headers(settings.referee_address, game=game.code if game else None).items():
        msg[name] = value
    if reply_to:
        msg["Reply-To"] = reply_to
    msg.set_content(f"{marker_line(msg['Message-ID'])}\n\n{strip_bidi(body)}")
    for pic in pictures:
        msg.add_attachment(pic.data, "image", pic.subtype, filename=pic.filename, disposition="inline")
    return msg


def _fit(value: str, limit: int) -> bool:
    """Whether a Message-ID from a mail can be repeated in a header of ours."""
    return len(value) < limit and value.isascii() and value.isprintable() and " " not in value


__all__ = ["KIND_ANSWER", "KIND_COPY", "KIND_ECHO", "KIND_GM", "KIND_REJECTION", "answer_id", "answer_mail",
           "status_text", "subject_for"]
