"""The world of the model-based test: one referee (real intake and tick, Maildir transport, a real database)
with a clock the test moves, the people who write to it, and what the test remembers of every mail.

Mails go into the referee's inbox Maildir as a mail server would put them (with the receiving server's
``Return-Path`` and ``Authentication-Results``); what the referee sends is read back from its outbox
Maildir and its outbox table. Each mail the test writes carries a tag (``[m17]``) in its subject, so an
answer to it is known whether it came alone (``in_reply_to_id``) or in a digest (which quotes the subject).
"""

from __future__ import annotations

import email
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from email import policy
from email.message import EmailMessage
from email.utils import format_datetime
from mailbox import Maildir
from pathlib import Path
from typing import TypeVar

from sqlalchemy import select

from referee import games as g
from referee.common.config import Settings
from referee.cron.tick import tick
from referee.cron.tick_summary import TickSummary
from referee.store import Store
from referee.store.mail_models import IncomingMail, OutgoingMail
from referee.store.models import Game, Order, Player, Turn

T = TypeVar("T")

DOMAIN = "example.test"
REFEREE = f"referee@{DOMAIN}"
GM = f"gm@{DOMAIN}"
GM_SECRET = "model-gm-secret"
MX = "mx.example.test"
GAME = "RR-1"
ROBOTS = ("Twonky", "Hammer", "Zoom")
PLAYERS = {robot: f"{robot.lower()}@{DOMAIN}" for robot in ROBOTS}
#: addresses that write to the referee without a seat
STRANGERS = ("dave@elsewhere.example", "erin@elsewhere.example")
#: addresses that never write: the forger's victims and the targets of SET ADDRESS
VICTIMS = ("victim1@victims.example", "victim2@victims.example", "victim3@victims.example")
T0 = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)
TAG = re.compile(r"\[m(\d+)\]")
#: the tick_interval of the model's referee (cron every 5 minutes)
TICK_INTERVAL = 300


@dataclass
class Sent:
    """A mail the test wrote, as the test knows it."""

    tag: int
    sender: str
    shape: str
    at: datetime
    forged: bool = False
    #: a reply quoting one of our answers with nothing new of its own (no answer owed)
    content_free: bool = False
    message_id: str = ""


@dataclass
class World:
    """One referee and what the test remembers of it."""

    settings: Settings
    store: Store
    now: datetime = T0
    sent: list[Sent] = field(default_factory=list)
    #: ticks run, with their time and summary
    ticks: list[tuple[datetime, TickSummary]] = field(default_factory=list)
    #: the time of each clock jump longer than an hour (a gap the referee may take for an outage)
    long_gaps: list[tuple[datetime, datetime]] = field(default_factory=list)
    #: player id -> the time her RESIGN was taken
    resigned_at: dict[int, datetime] = field(default_factory=dict)
    #: robot -> the key of the seat when its player resigned (never to be mailed to her again)
    resigned_keys: dict[str, tuple[str, str]] = field(default_factory=dict)
    #: addresses that wrote to the referee (they asked for an answer)
    asked: set[str] = field(default_factory=set)
    #: what happened, in a few words a step (to tell a broken promise's story)
    log: list[str] = field(default_factory=list)

    @classmethod
    def start(cls, db_url: str, tmp: Path, **changes: object) -> World:
        settings = Settings(database_url=db_url, referee_address=REFEREE, referee_name="Model referee",
                            gm_address=GM, gm_secret=GM_SECRET, signing_key="model", transport="maildir",
                            maildir_in=str(tmp / "in"), maildir_out=str(tmp / "out"),
                            lock_file=str(tmp / "tick.lock"), tick_interval=TICK_INTERVAL,
                            trusted_authserv_id=MX, archive_on_tick=False, default_missing_orders="random",
                            default_settle="0").with_overrides(**changes)
        world = cls(settings, Store(db_url))
        block = [f"BEGIN GM key {GM_SECRET}", f"NEWGAME {GAME} COURSE sprint SEED model DEADLINE 1d REMINDER 6h "
                 "MISSING random SETTLE 0", *(f"ADD PLAYER {a} {r}" for r, a in PLAYERS.items()), "START", "END"]
        world.write(GM, "New game", "\n".join(block) + "\n", shape="gm-newgame")
        world.run_tick()
        return world

    def close(self) -> None:
        self.store.close()

    # -- mail in -------------------------------------------------------------------------------------
    def write(self, sender: str, subject: str, body: str, *, shape: str, forged: bool = False,
              content_free: bool = False, in_reply_to: str | None = None, headers: dict[str, str] | None = None
              ) -> Sent:
        """Deliver one mail into the referee's inbox, as the receiving server at ``MX`` would."""
        tag = len(self.sent) + 1
        domain = sender.rpartition("@")[2]
        msg = EmailMessage()
        msg["Return-Path"] = "<bounce@forger.example>" if forged else f"<{sender}>"
        if forged:
            msg["Authentication-Results"] = (f"{MX}; spf=fail smtp.mailfrom=forger.example; dkim=none; "
                                             f"dmarc=fail header.from={domain}")
        else:
            msg["Authentication-Results"] = (f"{MX}; spf=pass smtp.mailfrom={sender}; dkim=pass header.d={domain}; "
                                             f"dmarc=pass header.from={domain}")
        msg["From"], msg["To"] = sender, REFEREE
        msg["Subject"] = f"{subject} [m{tag}]"
        msg["Date"] = format_datetime(self.now)
        msg["Message-ID"] = f"<m{tag}.{self.now:%Y%m%d%H%M}@{domain}>"
        if in_reply_to:
            msg["In-Reply-To"] = in_reply_to
            msg["References"] = in_reply_to
        for name, value in (headers or {}).items():
            msg[name] = value
        msg.set_content(body)
        path = self.settings.path(self.settings.maildir_in)
        path.parent.mkdir(parents=True, exist_ok=True)
        Maildir(str(path), create=True).add(msg.as_bytes(policy=policy.SMTP))
        sent = Sent(tag, sender, shape, self.now, forged=forged, content_free=content_free,
                    message_id=str(msg["Message-ID"]))
        self.sent.append(sent)
        self.log.append(f"[m{tag}] {'forged ' if forged else ''}{sender}: {shape.splitlines()[0]}")
        if not forged:
            self.asked.add(sender)
        return sent

    # -- time and the tick ---------------------------------------------------------------------------
    def run_tick(self) -> TickSummary:
        summary = tick(self.settings, now=self.now, store=self.store)
        self.ticks.append((self.now, summary))
        self.log.append(f"tick {self.now:%m-%d %H:%M}")
        return summary

    def jump(self, delta: timedelta) -> None:
        if delta > timedelta(hours=1):
            self.long_gaps.append((self.now, self.now + delta))
        self.now += delta
        self.log.append(f"+{delta}")

    # -- what the referee holds ----------------------------------------------------------------------
    def read(self, fn: Callable[..., T]) -> T:
        with self.store.read() as s:
            return fn(s)

    def game(self, s: object) -> Game:
        return g.get_game(s, GAME)  # type: ignore[arg-type]

    def player(self, s: object, robot: str) -> Player:
        return next(p for p in self.game(s).players if p.robot == robot)

    def outgoing(self) -> list[OutgoingMail]:
        return self.read(lambda s: list(s.scalars(select(OutgoingMail).order_by(OutgoingMail.id))))

    def incoming(self) -> list[IncomingMail]:
        return self.read(lambda s: list(s.scalars(select(IncomingMail).order_by(IncomingMail.id))))

    def orders(self) -> list[Order]:
        return self.read(lambda s: list(s.scalars(select(Order).order_by(Order.id))))

    def turns(self) -> list[Turn]:
        return self.read(lambda s: list(s.scalars(select(Turn).order_by(Turn.game_id, Turn.number))))

    def delivered(self) -> list[email.message.EmailMessage]:
        """Every mail in the outbox Maildir (what the referee handed to the mail server)."""
        path = self.settings.path(self.settings.maildir_out)
        if not path.exists():
            return []
        box = Maildir(str(path), factory=None, create=False)
        return [email.message_from_bytes(box.get_bytes(k), policy=policy.default)  # type: ignore[misc]
                for k in sorted(box.keys())]


def message_of(raw: bytes) -> EmailMessage:
    msg = email.message_from_bytes(raw, policy=policy.default)
    assert isinstance(msg, EmailMessage)
    return msg


def text_of(raw: bytes) -> str:
    """The plain text of a stored outgoing mail (with its subject, where digests quote subjects)."""
    msg = message_of(raw)
    body = msg.get_body(("plain",))
    return f"{msg['Subject']}\n" + (body.get_content() if body is not None else "")


def tags_in(text: str) -> set[int]:
    return {int(m) for m in TAG.findall(text)}
