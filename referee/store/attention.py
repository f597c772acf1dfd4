"""When each game next needs the tick: ``games.attention_at``, kept up to date, so that an idle tick reads
only the games that are due instead of every running game.

A running game's open turn needs the tick at the earliest of:

- the end of its settle delay, once nobody owes a program (then the turn is due: ``all in``);
- its reminder time (the deadline less the game's reminder delay), while a waiting player has not been
  reminded;
- its deadline, while somebody owes a program (then the turn is due: ``deadline``).

A game with nothing ahead (not running, no open turn, a turn without deadline that waits for programs) has
none (NULL): only a change can make it need the tick again. Times are not compared with "now" here: a time
already past means "look at it at the next tick".

:func:`attention_at` is the one definition; :func:`refresh` stores it. Nobody has to call it by hand: every
write session (:meth:`referee.store.Store.write`) notes the games whose rows that decide it changed (the
game, its turns, orders, players, notices, absences, departures, community settings) and refreshes those
games just before it commits, under the game's row lock, with what the transaction is about to commit.
Code that changes such rows with a bulk SQL statement (which the session does not see) calls :func:`touch`.
The tick refreshes the games it looked at, so a game is never left with a time in the past once nothing
is due in it.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import event, select, update
from sqlalchemy.orm import Session
from sqlalchemy.orm.attributes import set_committed_value

from .community_models import Absence, Departure, GameCommunity
from .db import WriteSession
from .mail import notices
from .models import Game, Order, Player, Turn, TurnNotice
from .queries import active_orders, open_turn, waiting_for

#: ``Session.info`` key: ids of the games whose attention time this transaction may have changed
_TOUCHED = "referee.attention.touched"
#: an attention time already past: the next tick looks at the game (and stores its real time)
LOOK_NOW = datetime(1970, 1, 1, tzinfo=UTC)

log = logging.getLogger("referee.store.attention")


def attention_at(s: Session, game: Game) -> datetime | None:
    """When ``game`` next needs the tick (see the module's docstring); None: not until something changes."""
    if game.status != "running":
        return None
    turn = open_turn(s, game)
    if turn is None:
        return None
    orders = active_orders(s, turn)
    waiting = waiting_for(s, game, turn, orders)
    if not waiting:
        last = max((o.submitted_at for o in orders.values()), default=turn.opened_at)
        return last + timedelta(seconds=game.settle_seconds)
    if turn.deadline is None:
        return None
    if game.reminder_seconds > 0:
        reminded = notices(s, turn, "reminder")
        if any(p.id not in reminded for p in waiting):
            return turn.deadline - timedelta(seconds=game.reminder_seconds)
    return turn.deadline


def refresh(s: Session, game: Game) -> datetime | None:
    """Store ``game``'s :func:`attention_at` (a plain UPDATE of that column: the game's version is not
    bumped, so nobody else's copy of the game goes stale); returns it."""
    value = attention_at(s, game)
    if value != game.attention_at:
        s.execute(update(Game).where(Game.id == game.id).values(attention_at=value)
                  .execution_options(synchronize_session=False))
        set_committed_value(game, "attention_at", value)
    return value


def due_games(s: Session, now: datetime) -> list[int]:
    """Ids of the running games that need the tick at ``now`` (an index range: idle games are not read)."""
    # sorted here, not by the database: ORDER BY id would let SQLite walk the whole table in id order instead
    return sorted(s.scalars(select(Game.id).where(Game.attention_at <= now, Game.status == "running")))


# -- keeping it up to date -----------------------------------------------------------------------------
def _key(obj: object) -> tuple[str, int] | None:
    """What a changed row tells of its game: ``("game", id)`` or, for rows that name their game only
    through a turn or a player, ``("turn", id)`` / ``("player", id)`` (looked up at commit)."""
    if isinstance(obj, Game):
        return ("game", obj.id)
    if isinstance(obj, Turn | Player | Departure | GameCommunity):
        return ("game", obj.game_id) if obj.game_id is not None else None
    if isinstance(obj, Order | TurnNotice):
        return ("turn", obj.turn_id) if obj.turn_id is not None else None
    if isinstance(obj, Absence):
        return ("player", obj.player_id) if obj.player_id is not None else None
    return None


def _games_of(s: Session, keys: set[tuple[str, int]]) -> set[int]:
    ids = {i for kind, i in keys if kind == "game"}
    turns = [i for kind, i in keys if kind == "turn"]
    players = [i for kind, i in keys if kind == "player"]
    if turns:
        ids.update(s.scalars(select(Turn.game_id).where(Turn.id.in_(turns))))
    if players:
        ids.update(s.scalars(select(Player.game_id).where(Player.id.in_(players))))
    return ids


@event.listens_for(WriteSession, "after_flush")
def _after_flush(s: Session, _context: Any) -> None:
    touched: set[tuple[str, int]] = s.info.setdefault(_TOUCHED, set())
    for obj in (*s.new, *s.dirty, *s.deleted):
        key = _key(obj)
        if key is not None:
            touched.add(key)


@event.listens_for(WriteSession, "before_commit")
def _before_commit(s: Session) -> None:
    if s.in_nested_transaction():
        return  # a savepoint: the outer transaction's commit does it, once
    s.flush()   # (what is still pending is noted by the flush)
    if not s.info.get(_TOUCHED):
        return
    game_ids = sorted(_games_of(s, s.info.pop(_TOUCHED)))
    for game_id in game_ids:
        # read what decides it again, under the game's row lock (PostgreSQL): what this transaction commits
        # (SQLite: the writer lock is held since the transaction began, so the game this session holds is current)
        if s.get_bind().dialect.name == "postgresql":
            stmt = select(Game).where(Game.id == game_id).execution_options(populate_existing=True)
            game = s.scalars(stmt.with_for_update()).one_or_none()
        else:
            game = s.get(Game, game_id)
        if game is None:
            continue
        try:
            with s.begin_nested():
                refresh(s, game)
        except Exception:  # never the reason a change is lost: the tick looks at the game and tries again
            log.exception("the attention time of game %s could not be computed", game_id)
            s.execute(update(Game).where(Game.id == game_id).values(attention_at=LOOK_NOW)
                      .execution_options(synchronize_session=False))
    s.info.pop(_TOUCHED, None)


@event.listens_for(WriteSession, "after_transaction_end")
def _after_transaction_end(s: Session, transaction: Any) -> None:
    if transaction.parent is None:
        s.info.pop(_TOUCHED, None)


def touch(s: Session, game_ids: Iterable[int]) -> None:
    """Refresh these games' attention times when ``s`` commits (for changes made by bulk SQL statements)."""
    s.info.setdefault(_TOUCHED, set()).update(("game", i) for i in game_ids)
