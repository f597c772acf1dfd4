"""Plain-text notices from the referee (announcements, reminders, late notices, GM acknowledgements).

A notice is a small text mail put in the outbox in the caller's transaction. Its Message-ID is
derived from ``key`` and the recipient, so queueing the same notice twice (a tick that is killed and
runs again) sends it once. Announcements and reminders to a player that fall in the same moment (one
GM mail, one tick) go out as one mail.

Every notice passes the outbound policy (:func:`referee.store.outbound.decide`): a notice to a GM over
``gm_notices_per_hour`` goes into the GM's digest (one mail an hour that collects them, never dropped); a
notice the policy refuses is kept in the outbox ``cancelled``, with the reason, and never sent.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from datetime import datetime
from email import message_from_bytes, policy
from email.message import EmailMessage
from email.utils import format_datetime, formataddr, parsedate_to_datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..common.config import Settings
from ..games.masters import masters_of
from ..orders.mailtext import outgoing_headers
from ..store import outbound
from ..store.community import resigned
from ..store.mail_models import IncomingMail, OutgoingMail
from ..store.models import Game, Player
from ..store.msgids import stamp
from ..store.outbox import enqueue_mail


def notice_id(key: str, recipient: str, domain: str) -> str:
    digest = hashlib.sha256(f"{key}\0{recipient.lower()}".encode()).hexdigest()[:24]
    return f"<notice.{digest}@{domain}>"


#: notices to a player that go out as one mail when they fall in the same moment (a tick, a GM mail)
GROUPED_KINDS = ("announcement", "reminder")


def notice(s: Session, settings: Settings, *, to: str, subject: str, body: str, key: str, kind: str = "notice",
           game: Game | None = None, player: Player | None = None, turn_number: int | None = None,
           in_reply_to: IncomingMail | None = None, now: datetime, asked_by: str | None = None) -> OutgoingMail:
    """Queue one plain-text mail from the referee to ``to``, as the outbound policy decides (``asked_by``:
    the sender of the mail that made the referee write it). An announcement or reminder to a player that
    another one, not yet sent, was queued for at the same moment joins it in one mail. Returns the row: a
    notice refused is ``cancelled``; one held back is in the GM's digest (that row)."""
    outbound.use(s, settings)
    hers = player is not None and player.status == "active" and player.email == to.lower()
    decision = outbound.decide(s, outbound.Request(kind, to, asked_by=asked_by, gm_address=settings.gm_address,
                                                   recipient=outbound.PLAYER if hers else None), now, in_reply_to)
    if decision.action == outbound.HOLD:
        return _into_digest(s, settings, to, subject, body, game, now)
    if kind in GROUPED_KINDS and game is not None and player is not None and decision.sent:
        waiting = s.scalars(select(OutgoingMail).where(
            OutgoingMail.game_id == game.id, OutgoingMail.player_id == player.id, OutgoingMail.created_at == now,
            OutgoingMail.kind.in_(GROUPED_KINDS), OutgoingMail.status == "pending", OutgoingMail.attempts == 0)
            .order_by(OutgoingMail.id)).first()
        if waiting is not None and waiting.recipients == [to]:
            return _join(s, settings, waiting, subject, body, key)
    msg = _message(settings, to=to, subject=subject, body=body, msg_id=notice_id(key, to, settings.domain),
                   game=game, player=player, now=now)
    row = enqueue_mail(s, msg, kind=kind, recipients=[to], sender=settings.referee_address, game=game,
                       player=player, turn_number=turn_number, in_reply_to=in_reply_to, now=now, decided=True)
    if not decision.sent and row.status == "pending" and row.attempts == 0:
        row.status, row.last_error = "cancelled", f"refused by the outbound policy: {decision.reason}"
    return row


#: ``OutgoingMail.kind`` of a GM's digest of notices held back by ``gm_notices_per_hour``
KIND_GM_DIGEST = "gm_digest"
_SECTION = "-" * 60


def _into_digest(s: Session, settings: Settings, to: str, subject: str, body: str, game: Game | None,
                 now: datetime) -> OutgoingMail:
    """Add a notice to ``to``'s digest waiting to go (one a window), starting one when none waits."""
    rows = s.scalars(select(OutgoingMail).where(OutgoingMail.kind == KIND_GM_DIGEST, OutgoingMail.status == "pending",
                                                OutgoingMail.next_attempt_at > now))
    row = next((r for r in rows if [str(a).lower() for a in r.recipients] == [to.lower()]), None)
    section = f"{_SECTION}\n{subject}\n\n{body.rstrip()}\n"
    if row is None:
        head = (f"More than {settings.gm_notices_per_hour} notices came for you within an hour; the others "
                "are collected here, in the order they came.\n\n")
        msg = _message(settings, to=to, subject="[GM] notices of the last hour", body=head + section,
                       msg_id=notice_id(f"gm-digest|{now.isoformat()}", to, settings.domain), game=None,
                       player=None, now=now)
        row = enqueue_mail(s, msg, kind=KIND_GM_DIGEST, recipients=[to], sender=settings.referee_address,
                           game=game, now=now, decided=True)
        row.next_attempt_at = now + outbound.BUDGET_SCOPE["gm_notices_per_hour"][1]
        return row
    old = message_from_bytes(row.raw, policy=policy.default)
    text = old.get_body(("plain",)).get_content()  # type: ignore[union-attr]
    msg = _message(settings, to=to, subject=str(old["Subject"]), body=text.rstrip("\n") + "\n" + section,
                   msg_id=str(old["Message-ID"]), game=None, player=None, now=parsedate_to_datetime(str(old["Date"])))
    row.raw = msg.as_bytes(policy=policy.SMTP)
    s.flush()
    return row


def _join(s: Session, settings: Settings, waiting: OutgoingMail, subject: str, body: str, key: str) -> OutgoingMail:
    """Add a notice to one still waiting in the outbox: one mail, both subjects, both texts."""
    old = message_from_bytes(waiting.raw, policy=policy.default)
    text = old.get_body(("plain",)).get_content()  # type: ignore[union-attr]
    if body.strip() in text:
        return waiting  # queued already (the same notice again)
    game = s.get(Game, waiting.game_id) if waiting.game_id is not None else None
    player = s.get(Player, waiting.player_id) if waiting.player_id is not None else None
    prefix = f"{game.code}: " if game is not None else ""
    joined_subject = f"{waiting.subject}; {subject.removeprefix(prefix)}"[:300]
    joined = text.rstrip("\n") + "\n\n" + "-" * 60 + "\n\n" + body
    to = str(waiting.recipients[0])
    msg = _message(settings, to=to, subject=joined_subject, body=joined,
                   msg_id=notice_id(f"{waiting.message_id}|{key}", to, settings.domain), game=game, player=player,
                   now=parsedate_to_datetime(str(old["Date"])))
    waiting.message_id = stamp(s, msg)
    waiting.raw, waiting.subject = msg.as_bytes(policy=policy.SMTP), joined_subject
    return waiting


def rewrite(s: Session, settings: Settings, row: OutgoingMail, *, subject: str, body: str, key: str) -> None:
    """Write the notice ``row`` again, not yet tried, with a new subject and text (the one notice of a GM mail
    growing with each command): still one mail, with a Message-ID of its own text."""
    old = message_from_bytes(row.raw, policy=policy.default)
    game = s.get(Game, row.game_id) if row.game_id is not None else None
    player = s.get(Player, row.player_id) if row.player_id is not None else None
    to = str(row.recipients[0])
    msg = _message(settings, to=to, subject=subject, body=body, msg_id=notice_id(key, to, settings.domain),
                   game=game, player=player, now=parsedate_to_datetime(str(old["Date"])))
    row.message_id = stamp(s, msg)
    row.raw, row.subject = msg.as_bytes(policy=policy.SMTP), subject


def _message(settings: Settings, *, to: str, subject: str, body: str, msg_id: str, game: Game | None,
             player: Player | None, now: datetime) -> EmailMessage:
    msg = EmailMessage()
    msg["From"] = formataddr((settings.referee_name, settings.referee_address))
    msg["To"] = to
    msg["Subject"] = subject
    msg["Message-ID"] = msg_id
    msg["Date"] = format_datetime(now)
    if player is not None and game is not None:
        from ..games.tokens import reply_address

        msg["Reply-To"] = reply_address(settings, game, player)  # a plain reply carries the player's key
    for name, value in outgoing_headers(settings.referee_address, game=game.code if game else None).items():
        msg[name] = value
    msg.set_content(body if body.endswith("\n") else body + "\n")
    return msg


def announce(s: Session, settings: Settings, game: Game, *, subject: str, body: str, key: str, now: datetime,
             players: Iterable[Player] | None = None, kind: str = "announcement") -> list[OutgoingMail]:
    """Queue the same notice to every active player of ``game`` (or to ``players``)."""
    out = []
    gone = resigned(s, game)   # players who resigned get no more mail of the game (issue 31)
    for p in players if players is not None else [p for p in game.players if p.status == "active" and p.id not in gone]:
        out.append(notice(s, settings, to=p.email, subject=subject, body=body, key=key, kind=kind, game=game,
                          player=p, turn_number=game.turn_number, now=now))
    return out


def tell_gm(s: Session, settings: Settings, game: Game | None, *, subject: str, body: str, key: str,
            now: datetime) -> OutgoingMail | None:
    """Queue a notice to the game's master and each co-master (or the configured GM); nobody to tell:
    ``None``, else the master's mail."""
    addresses = masters_of(s, game, settings) if game is not None else []
    if not addresses and settings.gm_address:
        addresses = [settings.gm_address]
    first = None
    for i, address in enumerate(addresses):
        sent = notice(s, settings, to=address, subject=subject, body=body, key=key if i == 0 else f"{key}:{address}",
                      kind="gm", game=game, turn_number=game.turn_number if game else None, now=now)
        first = first or sent
    return first
