"""Alembic environment for the referee store.

Run through ``referee db upgrade`` (which hands over an open connection), or with the alembic
command for development: ``alembic -c migrations/alembic.ini revision --autogenerate -m "..."``,
which reads the database URL from ``-x url=...``, else from the referee settings
(``REFEREE_CONFIG`` / ``REFEREE_DATABASE_URL``). SQLite needs batch mode to alter tables.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import text
from sqlalchemy.engine import Connection

from referee.store.db import WRITE_OPTION, advisory_key, make_engine
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
    _configure(connection=connection)
    with context.begin_transaction():
        if connection.dialect.name == "postgresql":
            # two upgrades at once: the second waits, then finds the database at head
            connection.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": advisory_key("referee.migrations")})
        context.run_migrations()


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    engine = make_engine(_url(), for_migrations=True)
    try:
        with engine.connect() as conn:
            _run(conn.execution_options(**{WRITE_OPTION: True}))
            conn.commit()
    finally:
        engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
