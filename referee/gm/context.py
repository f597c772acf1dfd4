"""What every GM command works with: the context of a run of commands, the failure it may raise, and the
words it shares with the players' mails (a deadline, a robot's health)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from ..common.config import Settings
from ..common.deadlines import deadline_text
from ..store import Store
from ..store.models import Game
from ..store.within import StoreWithin
from .bulletin import Line, News, Tail
from .words import Command

#: what a turn without a deadline says
NO_DEADLINE = "none (the turn waits for every program)"


class CommandFailed(Exception):
    """A command that cannot be carried out; its message goes into the GM's answer."""


@dataclass
class GmContext:
    store: Store | StoreWithin
    settings: Settings
    actor: str
    now: datetime
    game: str | None = None
    #: where the GM wants answers (mail); PREVIEW reports go there too
    reply_to: str | None = None
    #: the GM whose mail this is: its commands act only on games they run (None: the operator, any game)
    master: str | None = None
    lines: list[str] = field(default_factory=list)
    #: the same, for ``--json``: line, text, outcome (done, failed, not run) and what was said
    results: list[dict[str, Any]] = field(default_factory=list)
    #: commands that failed
    failures: int = 0
    #: commands not run because a command of the same mail they depend on failed
    skipped: int = 0
    #: what the mail's commands changed, told to each player in one notice (:mod:`.bulletin`)
    news: News = field(default_factory=News)


def game_code(ctx: GmContext) -> str:
    """The game the commands act on (named on the BEGIN line or by ``GAME``)."""
    if not ctx.game:
        raise CommandFailed("no game named: put it on the BEGIN line (BEGIN GM RR-7 key ...) or say GAME RR-7")
    return ctx.game


def notice_key(ctx: GmContext, command: Command, what: str) -> str:
    """A stable key for the notices a command sends (a retried mail sends them once)."""
    raw = f"{ctx.game}|{what}|{command.line}|{command.text}|{ctx.now.isoformat()}"
    return hashlib.sha256(raw.encode()).hexdigest()[:20]


def tell_players(ctx: GmContext, s: Session, game: Game, command: Command, subject: str, line: str,
                 tail: str | None = None, *, about: str | None = None, only: int | None = None) -> None:
    """Tell every player of ``game`` (or the player ``only``) of a change: ``line`` in the one notice of this
    GM mail (``subject`` when it is its only line), and ``tail``, what to do about it, after the lines (a
    tail without a line is told only beside another line of the same mail)."""
    if line:
        ctx.news.stage(game.code, Line(about or subject, line.rstrip(), subject, only))
    if tail:
        ctx.news.stage(game.code, Tail(about or subject, tail, only))


def tell_key(ctx: GmContext) -> str:
    """The key of the notices of this run of commands (a mail retried writes them again, alike)."""
    return hashlib.sha256(f"gm-news|{ctx.actor}|{ctx.now.isoformat()}".encode()).hexdigest()[:20]


def deadline_words(deadline: datetime | None, now: datetime, tz: str | None = None) -> str:
    """A deadline as every mail writes it, the GM's answers too: weekday, date, UTC, time left
    (``Thu 4 Jun 2026, 12:00 UTC (in 3 days)``), and the player's own zone when given."""
    return deadline_text(deadline, now, tz) or NO_DEADLINE


def health(damage: Any, lives: Any, flags: Any) -> str:
    """Damage, lives and flags as the players' answers write them: ``damage 3 (HP 7), lives 2, flags touched 1``."""
    hp = f" (HP {10 - damage})" if isinstance(damage, int) else ""
    return f"damage {damage}{hp}, lives {lives}, flags touched {flags}"
