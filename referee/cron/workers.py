"""Finding and sharing the due turns: cheap scans for a tick over many games, and workers that share
the turns to resolve.

The scans (:func:`due_turns`, :func:`reminder_candidates`) read only the games whose attention time has
come (``games.attention_at``, indexed, kept by :mod:`referee.store.attention`), so an idle tick costs the
same over a hundred games or a hundred thousand; they decide which turns are due with
:func:`referee.cron.due.due_reason` (the one definition of a due turn, which :func:`referee.cron.due.is_due`
asks of a loaded turn); each due turn is checked again, under its game's lock, before it is resolved.

:func:`resolve_due` resolves the due turns; any number of processes may run it at once, on one
machine or many, against one PostgreSQL database. Each turn is *claimed* before anything is done
with it: on PostgreSQL a session advisory lock on the game (``pg_try_advisory_lock``), which a
second worker does not wait for but passes over to the next game. The claim covers the whole
turn: the autopilot's search (read only, outside the game's write lock), then the write
transaction that locks the game's row, checks the turn again, resolves it and queues its mails.
The row lock and the turn number checked under it still guarantee that a turn is resolved once
even without the claim (a worker that lost a race gets ``AlreadyResolved`` and moves on); the claim
only keeps two workers from doing the same search and drawing twice. On SQLite every write holds
the database's one writer lock, so the claim is always granted and workers take turns.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime

import click
from sqlalchemy import bindparam, select, text
from sqlalchemy.orm import Session, selectinload

from .. import games as g
from ..common.config import Settings
from ..common.gcpause import gc_paused
from ..store import Store
from ..store.attention import due_games, refresh
from ..store.community import away_in
from ..store.db import advisory_key
from ..store.errors import AlreadyResolved, Busy, GameStateError, InvalidValue
from ..store.models import Game, Order, Turn, TurnNotice
from .due import due_reason, is_due, late_notices, seat_notices

log = logging.getLogger("referee.cron.workers")


@dataclass(frozen=True)
class OpenTurn:
    """What the scans know of one running game's open turn."""

    game_id: int
    code: str
    number: int
    deadline: datetime | None
    reminder_seconds: int
    #: players (id) who still owe a program
    waiting: frozenset[int]
    #: the game fills missing programs with the autopilot (planned before the write lock)
    autopilot: bool
    #: when the turn opened, when its last orders in force came (None: none yet), the game's settle delay
    opened_at: datetime
    last_order_at: datetime | None
    settle_seconds: int

    def due(self, now: datetime) -> str | None:
        """:func:`referee.cron.due.due_reason` of this turn as the scan saw it."""
        return due_reason(waiting=bool(self.waiting), last_order_at=self.last_order_at, opened_at=self.opened_at,
                          settle_seconds=self.settle_seconds, deadline=self.deadline, now=now)


def open_turns(s: Session, now: datetime) -> list[OpenTurn]:
    """The open turns of the running games that need the tick at ``now`` (their attention time has come,
    :mod:`referee.store.attention`: an index range, so idle games are not read), with the players still
    owing a program. Seven queries for all the games that need the tick together (one more for each whose
    absent players the autopilot plays for), none for the others."""
    ids = due_games(s, now)
    if not ids:
        return []
    games = {game.id: game for game in s.scalars(_GAMES, {"ids": ids})}
    turns = {turn.game_id: turn for turn in s.scalars(_OPEN_TURNS, {"ids": ids})}
    orders: dict[int, dict[int, Order]] = {turn.id: {} for turn in turns.values()}
    for order in s.scalars(_ORDERS, {"turns": list(orders)}):
        orders[order.turn_id][order.player_id] = order
    gone = away_in(s, [games[i] for i in ids if i in games and i in turns],
                   {i: turn.deadline for i, turn in turns.items()})
    out = []
    for game_id in ids:
        game, turn = games.get(game_id), turns.get(game_id)
        if game is None or turn is None:
            continue
        got = orders[turn.id]
        waiting = frozenset(p.id for p in g.waiting_for(s, game, turn, got, gone[game_id]))
        out.append(OpenTurn(game.id, game.code, turn.number, turn.deadline, game.reminder_seconds, waiting,
                            game.missing_orders == "autopilot", turn.opened_at,
                            max((o.submitted_at for o in got.values()), default=None), game.settle_seconds))
    return out


#: the scan's statements (each asked once for all the due games, not once a game), built once
_GAMES = select(Game).where(Game.id.in_(bindparam("ids", expanding=True))).options(selectinload(Game.players))
_OPEN_TURNS = select(Turn).where(Turn.game_id.in_(bindparam("ids", expanding=True)), Turn.status == "open")
_ORDERS = select(Order).where(Order.turn_id.in_(bindparam("turns", expanding=True)), Order.active.is_(True)) \
    .order_by(Order.id)


def due_turns(s: Session, now: datetime) -> list[tuple[str, int]]:
    """(game code, turn number) of every open turn due now, by :func:`referee.cron.due.due_reason`."""
    return [(t.code, t.number) for t in _due(s, now)]


def _due(s: Session, now: datetime) -> list[OpenTurn]:
    """The open turns due now (see :func:`due_turns`), as the scan saw them (each is checked again under
    its game's lock before it is resolved)."""
    return [t for t in open_turns(s, now) if t.due(now)]


def reminder_candidates(s: Session, now: datetime) -> list[str]:
    """Codes of the games whose open turn is within its reminder time before the deadline and that
    have a waiting player not yet reminded (the tick's remind step locks only these)."""
    window = [t for t in open_turns(s, now) if t.waiting and t.deadline is not None and t.reminder_seconds > 0
              and t.deadline.timestamp() - t.reminder_seconds <= now.timestamp() < t.deadline.timestamp()]
    if not window:
        return []
    reminded: set[tuple[int, str]] = set()
    for game_id, key in s.execute(
            select(Turn.game_id, TurnNotice.player_key).join(Turn, Turn.id == TurnNotice.turn_id)
            .where(Turn.game_id.in_([t.game_id for t in window]), Turn.status == "open",
                   TurnNotice.kind == "reminder")):
        reminded.add((game_id, key))  # a reminder's player_key is the player's id
    return [t.code for t in window if any((t.game_id, str(p)) not in reminded for p in t.waiting)]


def refresh_attention(store: Store, now: datetime) -> int:
    """Store again the attention time of every game whose time has come (after the tick resolved and
    reminded what was due): a game with nothing left to do now gets its next time, so the next tick does not
    read it again. Returns how many games were looked at."""
    with store.read() as s:   # (an idle tick takes no write lock for this)
        if not due_games(s, now):
            return 0
    with store.write() as s:
        ids = due_games(s, now)
        for game_id in ids:
            refresh(s, g.get_game(s, game_id, lock=True))
    return len(ids)


# -- sharing the due turns ---------------------------------------------------------------------------
@contextmanager
def claim(store: Store, game_id: int) -> Iterator[bool]:
    """Claim game ``game_id`` for this worker while the block runs: True if it is ours, False if
    another worker holds it (PostgreSQL session advisory lock, not waited for; SQLite: always True)."""
    if store.dialect != "postgresql":
        yield True
        return
    key = advisory_key(f"referee.resolve:{game_id}")
    with store.engine.connect() as conn:
        got = bool(conn.execute(text("SELECT pg_try_advisory_lock(:k)"), {"k": key}).scalar())
        conn.commit()
        try:
            yield got
        finally:
            if got:
                conn.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": key})
                conn.commit()


@dataclass
class Resolved:
    """What one :func:`resolve_due` pass did."""

    turns: list[str] = field(default_factory=list)
    #: due turns passed over because another worker had them
    skipped: int = 0
    errors: list[str] = field(default_factory=list)
    #: (game, turn, why) of due turns that cannot be resolved (their course cannot be loaded)
    stuck: list[tuple[str, int, str]] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.turns)


def resolve_due(store: Store, settings: Settings, *, now: datetime, worker: str = "",
                limit: int | None = None) -> Resolved:
    """Resolve every turn due at ``now`` that no other worker has (at most ``limit``), queueing its
    mails and the late and seat notices; each in its own transaction. A turn whose course cannot be
    loaded is passed over (in :attr:`Resolved.stuck`); the other games are resolved all the same."""
    from ..games import plan_missing, resolve_and_report

    done = Resolved()
    with store.read() as s:
        candidates = _due(s, now)
    for due in candidates:
        code, number = due.code, due.number
        if limit is not None and len(done.turns) >= limit:
            break
        with claim(store, due.game_id) as ours:
            if not ours:
                done.skipped += 1
                continue
            planned = None
            if due.autopilot and due.waiting:
                with store.read() as s:  # the autopilot searches before the write lock is taken
                    game = g.get_game(s, code)
                    turn = g.open_turn(s, game)
                    if turn is None or turn.number != number:
                        continue  # another worker resolved it before we claimed it
                    try:
                        planned = plan_missing(s, game)
                    except InvalidValue:
                        planned = None   # its course cannot be loaded: the write below says so
            try:
                with gc_paused(), store.write() as s:  # (the autopilot's search pauses it on its own: fills.py)
                    game = g.get_game(s, code)
                    turn = g.open_turn(s, game)
                    if turn is None or turn.number != number:
                        continue  # another worker resolved it
                    orders = g.active_orders(s, turn)
                    late = g.waiting_for(s, game, turn, orders)
                    if is_due(s, game, turn, now, waiting=late, orders=orders) is None:
                        continue
                    resolved = resolve_and_report(s, settings, game, actor="tick", now=now, expect_turn=number,
                                                  wait=False, planned=planned)
                    if late:
                        late_notices(s, settings, game, resolved, [p.robot for p in late], now)
                    seat_notices(s, settings, game, resolved, now)
                done.turns.append(f"{code} turn {number}")
                log.info("resolved %s turn %d%s", code, number, f" ({worker})" if worker else "")
            except (AlreadyResolved, Busy):
                done.skipped += 1  # another process has it
            except GameStateError as exc:
                done.errors.append(f"{code}: {exc}")
            except InvalidValue as exc:  # its course is gone or broken: this game waits, the others go on
                done.stuck.append((code, number, str(exc)))
    return done


# -- the command ------------------------------------------------------------------------------------
@click.command("resolve-due")
@click.option("--worker", default="", help="A name for this worker in the log (e.g. the host name).")
@click.option("--limit", type=int, default=None, help="Resolve at most this many turns, then stop.")
@click.option("--verbose", "-v", is_flag=True, help="Log every turn resolved to standard error.")
@click.option("--json", "as_json", is_flag=True, help="The outcome as JSON (turns, passed over, errors).")
def resolve_due_command(worker: str, limit: int | None, verbose: bool, as_json: bool) -> None:
    """Resolve the turns that are due now, sharing them with any other worker running at once.

    The tick does this too; run it on more machines (PostgreSQL) when one tick cannot keep up with
    the due turns. Prints one line: how many turns it resolved, passed over and failed.
    """
    from ..common import logs
    from ..common.clock import now as clock_now
    from ..console.support import cli_settings as _settings
    from ..console.support import open_store as _open_store

    settings = _settings()
    logs.setup(settings.log_level, verbose)
    store = _open_store()
    done = resolve_due(store, settings, now=clock_now(), worker=worker, limit=limit)
    if as_json:
        from ..console.support import echo_json

        echo_json({"resolved": [str(x) for x in done.turns], "passed_over": done.skipped, "errors": done.errors,
                   "ok": not done.errors})
    else:
        first = " ".join(done.errors[0].split())[:200] if done.errors else ""
        click.echo(f"resolve-due: resolved {len(done.turns)}, passed over {done.skipped}, errors {len(done.errors)}"
                   + (f", the first: {first}" if done.errors else ""))
    if done.errors:
        sys.exit(1)
