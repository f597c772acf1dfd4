"""Alembic environment for the referee store.

Run through ``referee db upgrade`` (which hands over an open connection), or with the alembic
command for development: ``alembic -c migrations/alembic.ini revision --autogenerate -m "..."``,
which reads the database URL from ``-x url=...``, else from the referee settings
(``REFEREE_CONFIG`` / ``REFEREE_DATABASE_URL``). SQLite needs batch mode to alter tables.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy.engine import Connection

from referee.store.db import MIGRATION_WAIT, make_engine, migration_transaction
from referee.store.models import Base

config = context.config
target_metadata = Base.metadata


def _url() -> str:
    url = context.get_x_argument(as_dictionary=True).get("url") or config.get_main_option("sqlalchemy.url")
    if url:
        return url
    from referee.common.config_load import load_settings

    return load_settings().database_url


def _configure(**kwargs: object) -> None:
    context.configure(target_metadata=target_metadata, render_as_batch=True, compare_type=True,
                      compare_server_default=True, **kwargs)


def run_migrations_offline() -> None:
    _configure(url=_url(), literal_binds=True, dialect_opts={"paramstyle": "named"})
    with context.begin_transaction():
        context.run_migrations()


def _run(connection: Connection) -> None:
    """Run the migrations inside the caller's transaction, which holds the migration lock
    (:func:`referee.store.db.migration_transaction`): Alembic reads the revision only now, and commits nothing."""
    if not connection.in_transaction():
        raise RuntimeError("migrations run inside referee.store.db.migration_transaction (it takes the lock)")
    _configure(connection=connection)
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")  # Store.upgrade: already in its migration transaction
    if connection is not None:
        _run(connection)
        return
    engine = make_engine(_url(), for_migrations=True, sqlite_timeout=MIGRATION_WAIT)
    try:
        with engine.connect() as conn, migration_transaction(conn):
            _run(conn)
    finally:
        engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
