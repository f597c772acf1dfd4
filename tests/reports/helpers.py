"""Games in a real store for the report, mailer and archive tests: created, started and played turn by
turn, with their mails queued as the referee queues them."""

from __future__ import annotations

import email
import uuid
from datetime import UTC, datetime, timedelta
from email import policy
from email.message import EmailMessage

from referee import games as g
from referee.common.config import Settings
from referee.reports import enqueue_start_mails, enqueue_turn_mails
from referee.store import Store
from referee.store.mail_models import OutgoingMail

#: a fixed start time; tests move it forward themselves
T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
COURSE = "sprint"
#: robot -> the Dovecot user playing it (addresses of the test mail server)
PLAYERS = {"Twonky": "alice", "Hammer": "bob", "Zoom": "carol"}
SETTINGS = Settings(referee_address="referee@example.test", referee_name="RoboRally referee",
                    gm_address="gm@example.test", transport="imap", smtp_host="127.0.0.1", smtp_tls="none",
                    mail_timeout=10.0)


def address(user: str) -> str:
    return f"{user}@example.test"


def unique_code() -> str:
    """A game code no other test uses: the shared mail server keeps every mail of the session."""
    return f"T{uuid.uuid4().hex[:8].upper()}"


def new_game(store: Store, players: dict[str, str] | None = None, *, course: str = COURSE, now: datetime = T0,
             seed: str = "reports", settings: Settings = SETTINGS, **kwargs: object) -> str:
    """A started game (its start mails queued); its code."""
    code = unique_code()
    with store.write() as s:
        game = g.create_game(s, course=course, code=code, seed=seed, now=now, actor="test", **kwargs)  # type: ignore[arg-type]
        for robot, user in (players or PLAYERS).items():
            g.add_player(s, game, email=address(user), robot=robot, name=user.title(), actor="test", now=now)
        g.start_game(s, game, actor="test", now=now)
        enqueue_start_mails(s, settings, game, now=now)
    return code


def play_turn(store: Store, code: str, *, now: datetime, settings: Settings = SETTINGS) -> list[int]:
    """Resolve the open turn (random programs for everyone) and queue its mails, in one transaction, as
    the referee does. The ids of the mails queued."""
    with store.write() as s:
        turn = g.resolve_turn(s, code, fill=g.random_fill, actor="test", now=now)
        rows = enqueue_turn_mails(s, settings, turn.game, turn, now=now)
        return [m.id for m in rows]


def play_turns(store: Store, code: str, count: int, *, start: datetime = T0) -> datetime:
    """Play ``count`` turns an hour apart; the time of the last one."""
    now = start
    for _ in range(count):
        now += timedelta(hours=1)
        play_turn(store, code, now=now)
    return now


def outbox(store: Store, ids: list[int] | None = None, **where: object) -> list[OutgoingMail]:
    from sqlalchemy import select

    with store.read() as s:
        stmt = select(OutgoingMail).order_by(OutgoingMail.id)
        if ids is not None:
            stmt = stmt.where(OutgoingMail.id.in_(ids))
        for key, value in where.items():
            stmt = stmt.where(getattr(OutgoingMail, key) == value)
        return list(s.scalars(stmt))


def parse(raw: bytes) -> EmailMessage:
    return email.message_from_bytes(raw, policy=policy.default)  # type: ignore[return-value]


def mime_tree(part: EmailMessage) -> object:
    if part.is_multipart():
        return (part.get_content_type(), [mime_tree(p) for p in part.iter_parts()])
    return part.get_content_type()


def text_of(msg: EmailMessage) -> str:
    body = msg.get_body(("plain",))
    assert body is not None
    return body.get_content().replace("\r\n", "\n")


def html_of(msg: EmailMessage) -> str:
    body = msg.get_body(("html",))
    assert body is not None
    return body.get_content().replace("\r\n", "\n")
