"""When a turn is due, and the notices that go with resolving it: the one definition the tick
(:mod:`referee.cron.tick`) and its workers (:mod:`referee.cron.workers`) share."""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy.orm import Session

from .. import games as g
from ..common.config import Settings
from ..mailer.notices import tell_gm
from ..reports.templating import render
from ..store.mail import record_notice
from ..store.models import Game, Order, Player, Turn


def is_due(s: Session, game: Game, turn: Turn, now: datetime, *, waiting: list[Player] | None = None,
           orders: dict[int, Order] | None = None) -> str | None:
    """Why the open turn is due now (``all in`` or ``deadline``), or None. ``waiting`` (who still owes a
    program, :func:`referee.games.waiting_for`) and ``orders`` (the turn's active orders): where the
    caller has them."""
    if orders is None:
        orders = g.active_orders(s, turn)
    if waiting is None:
        waiting = g.waiting_for(s, game, turn, orders)
    return due_reason(waiting=bool(waiting), last_order_at=max((o.submitted_at for o in orders.values()), default=None),
                      opened_at=turn.opened_at, settle_seconds=game.settle_seconds, deadline=turn.deadline, now=now)


def due_reason(*, waiting: bool, last_order_at: datetime | None, opened_at: datetime, settle_seconds: int,
               deadline: datetime | None, now: datetime) -> str | None:
    """The one definition of a due turn, from what is known of it: ``all in`` when nobody owes a program
    and the last orders (or the opening, without any) are ``settle_seconds`` old, ``deadline`` when
    somebody does and the deadline has passed, else None. (:func:`is_due` asks it of a loaded turn, the
    tick's scan of every running game, :func:`referee.cron.workers.open_turns`, of its rows.)"""
    if not waiting:
        last = last_order_at if last_order_at is not None else opened_at
        return "all in" if now >= last + timedelta(seconds=settle_seconds) else None
    if deadline is not None and now >= deadline:
        return "deadline"
    return None


def late_notices(s: Session, settings: Settings, game: Game, turn: Turn, late: list[str], now: datetime) -> None:
    """Who was late is told in the results mail itself (:mod:`referee.reports.fills`); only the record is
    kept here."""
    record_notice(s, turn, "late", now=now)


def seat_notices(s: Session, settings: Settings, game: Game, turn: Turn, now: datetime) -> None:
    for p in game.players:
        if (p.status == "active" and p.missed_turns >= game.max_missed_turns > 0
                and record_notice(s, turn, "seat_open", p, now=now)):
            tell_gm(s, settings, game, subject=f"[GM] {game.code}: {p.robot}'s seat is open",
                    body=render("seat_open.txt", robot=p.robot, email=p.email,
                                  missed=p.missed_turns).rstrip("\n"),
                    key=f"seat:{game.code}:{turn.number}:{p.robot}", now=now)
