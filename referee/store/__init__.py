"""The game store: persistence of everything a game needs, in SQLite (the default) or PostgreSQL.

Modules:

- :mod:`.db`: :class:`Store` (engine, ``write()`` / ``read()`` sessions, schema migrations).
- :mod:`.models`: the tables (with :mod:`.mail_models`, :mod:`.community_models`, on :mod:`.base`).
- :mod:`.queries`: games, players, turns and orders looked up by meaning (no changes).
- :mod:`.records`: a turn's JSON columns (hands, fused registers, programs, snapshots), typed.
- :mod:`.mail`: incoming mails, once-only notices, service state; :mod:`.outbox`: the outbox.
- :mod:`.programs`: checking a program against a hand (pure).
- :mod:`.locking`: row locks and named locks.
- :mod:`.errors`: what the store refuses (``StoreError`` and subclasses, one-line messages).

What is done with a game (create, start, resolve, ...) is :mod:`referee.games`, above the store::

    from referee import games
    from referee.common.config import load_settings
    from referee.store import Store

    store = Store(load_settings().database_url)
    store.check_schema()
    with store.write() as s:
        game = games.create_game(s, course="sprint", actor="gm:alice@example.org")
        games.add_player(s, game, email="bob@example.org", robot="Twonky")
        games.start_game(s, game)

The store imports nothing above it (no intake, mailer, reports, render, gm or games); it reads an incoming
mail's sender and readability with :mod:`referee.mailparse`, which sits below it.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .db import SchemaError, Store, head_revision, migrations_dir
    from .errors import (
        AlreadyResolved,
        Busy,
        Duplicate,
        GameStateError,
        InvalidValue,
        MissingOrders,
        NotFound,
        ProgramError,
        StaleOrders,
        StoreError,
    )

# names are loaded on first use, so that ``referee`` commands that never touch the store do not
# pay for importing SQLAlchemy
_LAZY = {
    **{name: "db" for name in ("SchemaError", "Store", "head_revision", "migrations_dir")},
    **{name: "errors" for name in ("AlreadyResolved", "Busy", "Duplicate", "GameStateError", "InvalidValue",
                                   "MissingOrders", "NotFound", "ProgramError", "StaleOrders", "StoreError")},
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f".{module}", __name__), name)


__all__ = [
    "AlreadyResolved",
    "Busy",
    "Duplicate",
    "GameStateError",
    "InvalidValue",
    "MissingOrders",
    "NotFound",
    "ProgramError",
    "SchemaError",
    "StaleOrders",
    "Store",
    "StoreError",
    "head_revision",
    "migrations_dir",
]
