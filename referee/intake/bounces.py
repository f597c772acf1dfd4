"""Bounces of the referee's own mail: read them, mark the mail, tell the GM once.

A delivery status notification is never answered (it is a robot's mail), but it says that a player's
address is dead, and the GM must hear of it. :func:`read_bounce` recognises

* RFC 3464 reports: ``multipart/report; report-type=delivery-status`` with a ``message/delivery-status``
  part (``Action: failed``, ``Status: 5.1.1``, ``Final-Recipient``, ``Diagnostic-Code``) and the original
  mail or its headers (``message/rfc822``, ``text/rfc822-headers``);
* the common non-standard bounces (qmail's "failure notice", Exim's "Mail delivery failed", Exchange's
  "Undeliverable:", a mailer daemon's plain text), with the original mail quoted or attached.

The original's Message-ID ties a bounce to a mail in the outbox (:func:`handle_bounce`); a bounce of a
mail the referee never sent is left alone. The outgoing mail is marked ``failed`` with what the report
says, and the GM is told once per mail.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from email import message_from_bytes, policy
from email.message import EmailMessage, Message

from sqlalchemy.orm import Session

from ..common.config import Settings
from ..mailer.notices import tell_gm
from ..messages import gm as to_gm
from ..store.mail_models import OutgoingMail
from ..store.models import Game, Player
from . import lookups

#: what ``OutgoingMail.last_error`` starts with once a bounce was recorded for the mail
BOUNCED = "bounced: "

_MSGID = re.compile(r"^\s*Message-ID:\s*(<[^<>\s]{1,500}>)", re.IGNORECASE | re.MULTILINE)
_BOUNCE_SUBJECT = re.compile(r"undeliver|returned mail|returned to sender|delivery (?:status notification|failure|"
                             r"has failed)|mail delivery failed|failure notice|could not be delivered|"
                             r"nicht zustellbar|unzustellbar|non remis|non distribuable|onbestelbaar|"
                             r"no se puede entregar|impossibile recapitare|não entregue", re.IGNORECASE)
_DAEMON = re.compile(r"^(?:mailer-daemon|postmaster|mail-daemon|mailerdaemon|bounce[s]?)(?:[+@]|$)", re.IGNORECASE)
_STATUS = re.compile(r"\b([45]\.\d{1,3}\.\d{1,3})\b")
_SMTP_REPLY = re.compile(r"\b(5\d\d[ -].{0,200})$", re.MULTILINE)


@dataclass
class Bounce:
    """What a delivery failure report says."""

    #: ``failed`` or ``delayed`` (the worst action reported)
    action: str
    #: Message-IDs of the original mail found in the report
    original_ids: list[str] = field(default_factory=list)
    #: recipients that failed, as the report names them
    recipients: list[str] = field(default_factory=list)
    #: the status code and the remote server's words, shortened
    reason: str = ""


def _fields(part: Message) -> list[Message]:
    """The field groups of a ``message/delivery-status`` part (per-message, then one per recipient)."""
    payload = part.get_payload()
    if isinstance(payload, list):
        return [p for p in payload if isinstance(p, Message)]
    text = payload if isinstance(payload, str) else ""
    groups = re.split(r"\r?\n\s*\r?\n", text.strip())
    return [message_from_bytes(g.encode("utf-8", "replace"), policy=policy.compat32) for g in groups if g.strip()]


def _text_of(part: Message) -> str:
    try:
        content = part.get_payload(decode=True)
    except Exception:
        return ""
    if isinstance(content, bytes):
        return content.decode(part.get_content_charset() or "utf-8", "replace")
    return str(part.get_payload() or "")


def _original_ids(msg: Message) -> list[str]:
    found: list[str] = []
    for part in msg.walk():
        ctype = part.get_content_type()
        if ctype == "message/rfc822":
            inner = part.get_payload()
            for m in inner if isinstance(inner, list) else [inner]:
                if isinstance(m, Message) and m.get("Message-ID"):
                    found.append(str(m["Message-ID"]).strip())
        elif ctype in ("text/rfc822-headers", "text/plain", "message/rfc822-headers"):
            found += _MSGID.findall(_text_of(part))
    own = str(msg.get("Message-ID") or "").strip()
    return list(dict.fromkeys(i for i in found if i != own))


def read_bounce(raw: bytes) -> Bounce | None:
    """The delivery failure report in ``raw``, or None if it is not one."""
    try:
        msg: EmailMessage = message_from_bytes(raw, policy=policy.default)  # type: ignore[assignment]
        return _read(msg)
    except Exception:  # a mail that cannot be read as a report is not one
        return None


def _read(msg: EmailMessage) -> Bounce | None:
    ctype = msg.get_content_type()
    report = ctype == "multipart/report" and msg.get_param("report-type", "").lower() == "delivery-status"
    if report:
        actions, recipients, reasons = [], [], []
        for part in msg.walk():
            if part.get_content_type() not in ("message/delivery-status", "message/global-delivery-status"):
                continue
            for group in _fields(part):
                action = str(group.get("Action") or "").strip().lower()
                if not action:
                    continue
                actions.append(action)
                if action == "failed":
                    rcpt = str(group.get("Final-Recipient") or group.get("Original-Recipient") or "")
                    recipients.append(rcpt.split(";", 1)[-1].strip())
                    reasons.append(" ".join(f"{group.get('Status') or ''} {group.get('Diagnostic-Code') or ''}"
                                            .split()))
        if "failed" not in actions:
            return Bounce("delayed", _original_ids(msg)) if actions else None
        return Bounce("failed", _original_ids(msg), recipients, "; ".join(r for r in reasons if r)[:300])
    sender = str(msg.get("From") or "")
    address = re.sub(r"^.*<([^>]*)>.*$", r"\1", sender).strip()
    subject = str(msg.get("Subject") or "")
    if not (_DAEMON.match(address) or str(msg.get("Return-Path") or "").strip() == "<>") \
            or not _BOUNCE_SUBJECT.search(subject):
        return None
    ids = _original_ids(msg)
    if not ids:
        return None
    text = "\n".join(_text_of(p) for p in msg.walk() if p.get_content_type() == "text/plain")
    status = _STATUS.search(text)
    reply = _SMTP_REPLY.search(text)
    reason = " ".join(x for x in (status.group(1) if status else "", reply.group(1).strip() if reply else "") if x)
    recipients = re.findall(r"<([^<>@\s]+@[^<>\s]+)>:", text)
    return Bounce("failed", ids, recipients, (reason or subject)[:300])


def handle_bounce(s: Session, settings: Settings, raw: bytes, now: datetime) -> str | None:
    """If ``raw`` reports a delivery failure of a mail in the outbox, mark that mail failed, tell the GM
    (once per mail) and return what to record as the report's outcome; else None (an ordinary mail, or
    a bounce of mail the referee never sent)."""
    bounce = read_bounce(raw)
    if bounce is None or not bounce.original_ids:
        return None
    mail = lookups.sent_mail(s, bounce.original_ids)
    if mail is None:
        return None
    if bounce.action != "failed":
        return f"delivery delayed for {mail.message_id} (not a failure yet)"
    first = not (mail.last_error or "").startswith(BOUNCED)
    mail.status = "failed"
    mail.last_error = f"{BOUNCED}{bounce.reason or 'the receiving server refused it'}"[:2000]
    if first:
        _tell(s, settings, mail, bounce, now)
    return f"delivery failure report for {mail.message_id}" + ("; the GM was told" if first else " (told before)")


def _tell(s: Session, settings: Settings, mail: OutgoingMail, bounce: Bounce, now: datetime) -> None:
    game = s.get(Game, mail.game_id) if mail.game_id is not None else None
    player = s.get(Player, mail.player_id) if mail.player_id is not None else None
    to = ", ".join(str(r) for r in mail.recipients)
    robot, code = (player.robot, game.code) if player is not None and game is not None else (None, None)
    body = to_gm.bounced(to, robot, code, mail.subject, f"{mail.sent_at or mail.created_at:%Y-%m-%d %H:%M}",
                         bounce.reason or "the receiving server refused it")
    tell_gm(s, settings, game, subject=to_gm.bounced_subject(mail.subject), body=body,
            key=f"bounce|{mail.message_id}", now=now)
