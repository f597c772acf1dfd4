"""Row locks and named locks: how two processes are kept from changing one game at once.

Every service function that changes a game first calls :func:`lock_game` in its write session.
On PostgreSQL that is ``SELECT ... FOR UPDATE`` on the game's row: a second process doing the
same waits until the first commits and then reads the committed state. With ``skip_locked=True``
(``FOR UPDATE SKIP LOCKED``) it does not wait but gets ``None``: the way a worker passes over a
game another worker is busy with. On SQLite a write session already holds the database's writer
lock (``BEGIN IMMEDIATE``, see :mod:`referee.store.db`), so the row lock is implicit and
``skip_locked`` never skips. Either way the caller then re-checks the state it read (is the turn
still open?) before acting on it.

The ``version`` column of a game is a second line of defence: an update from a stale copy fails
(``StaleDataError``) instead of silently overwriting someone else's change.
"""

from __future__ import annotations

from sqlalchemy import Select, bindparam, func, select
from sqlalchemy.orm import Session

from .db import WRITE_OPTION, pg_advisory_xact_lock
from .errors import StoreError
from .models import Game


def lock_game(s: Session, key: int | str, *, skip_locked: bool = False) -> Game | None:
    """The game with id or code ``key``, locked for this transaction; ``None`` if there is no such
    game, or (``skip_locked``, PostgreSQL) another transaction holds it."""
    require_write(s)
    by_id = isinstance(key, int)
    if by_id and s.get_bind().dialect.name != "postgresql":
        # SQLite: this transaction has held the writer lock since it began (BEGIN IMMEDIATE), so a game this
        # session holds is the one in the database: no need to read it (and its players) again
        return s.get(Game, key)
    stmt = _LOCK.get((by_id, skip_locked))
    if stmt is None:
        stmt = select(Game).where(Game.id == bindparam("key") if by_id else func.upper(Game.code) == bindparam("key"))
        stmt = _LOCK[by_id, skip_locked] = stmt.with_for_update(skip_locked=skip_locked) \
            .execution_options(populate_existing=True)
    return s.scalars(stmt, {"key": key if isinstance(key, int) else key.strip().upper()}).one_or_none()


#: (by id, skip locked) -> the statement of :func:`lock_game`, built once
_LOCK: dict[tuple[bool, bool], Select[tuple[Game]]] = {}


def require_write(s: Session) -> None:
    """Refuse to change anything in a read session (on SQLite it would not hold the writer lock)."""
    if not s.connection().get_execution_options().get(WRITE_OPTION):
        raise StoreError("this changes the store: call it in a Store.write() session, not Store.read()")


def lock_named(s: Session, name: str) -> None:
    """A lock on a name for the rest of the transaction (e.g. ``games`` while a new code is chosen).
    PostgreSQL: an advisory lock. SQLite: the writer lock held by every write session suffices."""
    if s.get_bind().dialect.name == "postgresql":
        pg_advisory_xact_lock(s, name)
