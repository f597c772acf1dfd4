"""Plain-text notices from the referee (announcements, reminders, late notices, GM acknowledgements).

A notice is a small text mail put in the outbox in the caller's transaction. Its Message-ID is
derived from ``key`` and the recipient, so queueing the same notice twice (a tick that is killed and
runs again) sends it once.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from datetime import datetime
from email.message import EmailMessage
from email.utils import format_datetime, formataddr

from sqlalchemy.orm import Session

from .config import Settings
from .orders.mailtext import outgoing_headers
from .store.mail import enqueue_mail
from .store.models import Game, IncomingMail, OutgoingMail, Player


def notice_id(key: str, recipient: str, domain: str) -> str:
    digest = hashlib.sha256(f"{key}\0{recipient.lower()}".encode()).hexdigest()[:24]
    return f"<notice.{digest}@{domain}>"


def notice(s: Session, settings: Settings, *, to: str, subject: str, body: str, key: str, kind: str = "notice",
           game: Game | None = None, player: Player | None = None, turn_number: int | None = None,
           in_reply_to: IncomingMail | None = None, now: datetime) -> OutgoingMail:
    """Queue one plain-text mail from the referee to ``to``."""
    msg = EmailMessage()
    msg["From"] = formataddr((settings.referee_name, settings.referee_address))
    msg["To"] = to
    msg["Subject"] = subject
    msg["Message-ID"] = notice_id(key, to, settings.domain)
    msg["Date"] = format_datetime(now)
    if player is not None and game is not None:
        from .intake.tokens import reply_address

        msg["Reply-To"] = reply_address(settings, game, player)  # a plain reply carries the player's key
    for name, value in outgoing_headers(settings.referee_address, game=game.code if game else None).items():
        msg[name] = value
    msg.set_content(body if body.endswith("\n") else body + "\n")
    return enqueue_mail(s, msg, kind=kind, recipients=[to], sender=settings.referee_address, game=game,
                        player=player, turn_number=turn_number, in_reply_to=in_reply_to, now=now)


def announce(s: Session, settings: Settings, game: Game, *, subject: str, body: str, key: str, now: datetime,
             players: Iterable[Player] | None = None, kind: str = "announcement") -> list[OutgoingMail]:
    """Queue the same notice to every active player of ``game`` (or to ``players``)."""
    out = []
    for p in players if players is not None else [p for p in game.players if p.status == "active"]:
        out.append(notice(s, settings, to=p.email, subject=subject, body=body, key=key, kind=kind, game=game,
                          player=p, turn_number=game.turn_number, now=now))
    return out


def tell_gm(s: Session, settings: Settings, game: Game | None, *, subject: str, body: str, key: str,
            now: datetime) -> OutgoingMail | None:
    """Queue a notice to the game's GM (or the configured GM); nobody to tell: ``None``."""
    address = (game.gm_address if game is not None else None) or settings.gm_address
    if not address:
        return None
    return notice(s, settings, to=address, subject=subject, body=body, key=key, kind="gm", game=game,
                  turn_number=game.turn_number if game else None, now=now)
