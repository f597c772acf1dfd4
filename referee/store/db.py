"""Opening the store: the engine, sessions that are one transaction, and the schema migrations.

Two kinds of sessions, both a single transaction that commits when the ``with`` block ends and
rolls back when it raises::

    store = Store(settings.database_url)
    with store.write() as s:        # changes something
        game = games.create_game(s, course="sprint", actor="cli:alice")
    with store.read() as s:         # only looks
        print(games.list_games(s))

On SQLite a write session starts with ``BEGIN IMMEDIATE``: it takes the database's single writer
lock before it reads anything, so two processes never interleave their read-then-write steps
(the second one waits, up to ``sqlite_timeout`` seconds, and then sees what the first wrote).
Read sessions start with a plain ``BEGIN`` and never wait (the file is in WAL mode). On
PostgreSQL both are ordinary READ COMMITTED transactions; the service functions lock the rows
they change (``SELECT ... FOR UPDATE``, or ``SKIP LOCKED`` for work queues, see
:mod:`referee.store.locking`).
"""

from __future__ import annotations

import ast
import hashlib
import re
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.engine import URL, Connection, make_url
from sqlalchemy.exc import ArgumentError, OperationalError
from sqlalchemy.orm import Session
from sqlalchemy.pool import NullPool
from tenacity import Retrying, retry_if_exception, stop_after_delay, wait_random

from ..common.private import create_private
from .errors import StoreError

#: execution option that marks a connection whose transactions must take the writer lock (SQLite)
WRITE_OPTION = "referee_write"
#: how long (seconds) a migration waits for another one on the same SQLite file to end: migrating a big
#: database takes a while, and the one waiting then only finds the work done
MIGRATION_WAIT = 600.0


class WriteSession(Session):
    """The store's write session (:meth:`Store.write`); :mod:`referee.store.attention` keeps the attention time of
    the games it changes (its hooks are installed on this class when that module is imported, which
    :mod:`referee.games` does)."""


class SchemaError(StoreError):
    """The database is not at the schema this version of referee needs."""


def migrations_dir() -> Path:
    """The Alembic scripts: shipped in the wheel as ``referee/_data/migrations``, or the source tree's."""
    here = Path(__file__).resolve().parent.parent
    for candidate in (here / "_data" / "migrations", here.parent / "migrations"):
        if (candidate / "env.py").is_file():
            return candidate
    raise StoreError(f"migration scripts not found (looked in {here / '_data' / 'migrations'} "
                     f"and {here.parent / 'migrations'})")


def parse_url(url: str | URL) -> URL:
    try:
        return make_url(url)
    except ArgumentError as exc:
        raise StoreError(f"bad database URL {str(url)!r}: {exc}") from None


def _is_busy(exc: BaseException) -> bool:
    return isinstance(exc, sqlite3.OperationalError) and ("locked" in str(exc) or "busy" in str(exc))


def _use_wal(cur: sqlite3.Cursor, timeout: float) -> None:
    """Put the file in WAL mode (it stays so). Two processes opening a new database at once can meet
    here, and SQLite answers the loser "database is locked" at once rather than waiting: try again."""
    for attempt in Retrying(retry=retry_if_exception(_is_busy), wait=wait_random(0.01, 0.05),
                            stop=stop_after_delay(timeout), reraise=True):
        with attempt:
            if str(cur.execute("PRAGMA journal_mode").fetchone()[0]).lower() != "wal":
                cur.execute("PRAGMA journal_mode = WAL")


def _install_sqlite_events(engine: Engine, *, foreign_keys: bool, timeout: float) -> None:
    """pysqlite's own transaction handling is switched off so that we say how each one begins."""

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None
        cur = dbapi_connection.cursor()
        cur.execute(f"PRAGMA foreign_keys = {'ON' if foreign_keys else 'OFF'}")
        if engine.url.database and engine.url.database != ":memory:":
            _use_wal(cur, timeout)
        cur.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Connection) -> None:
        if conn.get_execution_options().get(WRITE_OPTION):
            conn.exec_driver_sql("BEGIN IMMEDIATE")
        else:
            conn.exec_driver_sql("BEGIN")


def make_engine(url: str | URL, *, echo: bool = False, sqlite_timeout: float = 60.0,
                for_migrations: bool = False) -> Engine:
    """An engine for ``url`` set up for the store (SQLite: WAL, foreign keys, writer lock)."""
    u = parse_url(url)
    kwargs: dict[str, Any] = {"echo": echo}
    if u.get_backend_name() == "sqlite":
        kwargs["connect_args"] = {"timeout": sqlite_timeout}
        _create_private_sqlite(u)
    if for_migrations:
        kwargs["poolclass"] = NullPool
    try:
        engine = create_engine(u, **kwargs)
    except (ArgumentError, ImportError) as exc:
        raise StoreError(f"cannot use database URL {u.render_as_string()!r}: {exc}") from None
    if u.get_backend_name() == "sqlite":
        # batch migrations copy and drop tables: foreign keys must not cascade while they do
        _install_sqlite_events(engine, foreign_keys=not for_migrations, timeout=sqlite_timeout)
    return engine


def _create_private_sqlite(u: URL) -> None:
    """A new SQLite file is created owner-only, whatever the umask: SQLite gives its ``-wal`` and ``-shm``
    files the database file's mode (see :mod:`referee.common.private`)."""
    name = u.database
    if not name or name == ":memory:" or name.startswith("file:") or u.query.get("uri"):
        return
    path = Path(name)
    if path.parent.is_dir():
        create_private(path)


class Store:
    """One database. Cheap to create; call :meth:`close` (or use it as a context manager) when done."""

    def __init__(self, url: str | URL, *, echo: bool = False, sqlite_timeout: float = 60.0) -> None:
        self.url = parse_url(url)
        self.sqlite_timeout = sqlite_timeout
        self.engine = make_engine(self.url, echo=echo, sqlite_timeout=sqlite_timeout)
        self._writer = self.engine.execution_options(**{WRITE_OPTION: True})

    @classmethod
    def from_settings(cls, settings: Any, **kwargs: Any) -> Store:
        return cls(settings.database_url, **kwargs)

    @property
    def dialect(self) -> str:
        """``sqlite`` or ``postgresql``."""
        return self.engine.dialect.name

    def describe(self) -> str:
        """The URL with its password hidden."""
        return self.url.render_as_string(hide_password=True)

    @contextmanager
    def write(self) -> Iterator[Session]:
        """A session in one write transaction (SQLite: holding the writer lock from the start). It keeps the
        attention time of the games it changes (:mod:`referee.store.attention`)."""
        with WriteSession(self._writer, expire_on_commit=False) as session, session.begin():
            yield session

    @contextmanager
    def read(self) -> Iterator[Session]:
        """A session in one read-only transaction (nothing is committed). Objects loaded stay
        readable after the block (closing the session does not expire them)."""
        with Session(self.engine, expire_on_commit=False) as session:
            yield session

    def close(self) -> None:
        self.engine.dispose()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- schema --------------------------------------------------------------------------------------
    def current_revision(self) -> str | None:
        """The Alembic revision the database is at (None: empty, never upgraded).

        Read with a plain query rather than through Alembic, whose import costs a short-lived
        ``referee ingest`` process a good part of its start (the MTA waits on it)."""
        try:
            with self.engine.connect() as conn:
                return _revision(conn)
        except OperationalError as exc:
            raise StoreError(f"cannot open database {self.describe()}: {exc.orig}") from None

    def upgrade(self, revision: str = "head") -> tuple[str | None, str | None]:
        """Bring the database to ``revision``; returns (revision before, revision after)."""
        return self._migrate("upgrade", revision)

    def downgrade(self, revision: str) -> tuple[str | None, str | None]:
        return self._migrate("downgrade", revision)

    def _migrate(self, direction: str, revision: str) -> tuple[str | None, str | None]:
        """Run Alembic inside :func:`migration_transaction`: the revision before is read once the lock is
        held, so an upgrade that waited for another one reports (and does) nothing when that one got to head."""
        from alembic import command
        from alembic.util import CommandError

        engine = make_engine(self.url, for_migrations=True, sqlite_timeout=max(self.sqlite_timeout, MIGRATION_WAIT))
        try:
            with engine.connect() as conn, migration_transaction(conn):
                before = _revision(conn)
                cfg = alembic_config(self.url)
                cfg.attributes["connection"] = conn
                try:
                    getattr(command, direction)(cfg, revision)
                except CommandError as exc:
                    raise StoreError(f"db {direction}: {exc}") from None
        except OperationalError as exc:
            raise StoreError(f"cannot {direction} database {self.describe()}: {exc.orig}") from None
        finally:
            engine.dispose()
        return before, self.current_revision()

    def check_schema(self, *, upgrade_empty_sqlite: bool = True) -> None:
        """Make sure the database is at head. An empty SQLite file is created and upgraded on the spot
        (the embedded default needs no setup); anything else behind head is an error naming the fix."""
        current = self.current_revision()
        head = head_revision()
        if current == head:
            return
        if current is None and upgrade_empty_sqlite and self.dialect == "sqlite" and not self._has_tables():
            self.upgrade()
            return
        if current is None:
            raise SchemaError(f"database {self.describe()} has no referee schema: run 'referee db upgrade'")
        raise SchemaError(f"database {self.describe()} is at revision {current}, this referee needs {head}: "
                          f"run 'referee db upgrade'")

    def _has_tables(self) -> bool:
        from sqlalchemy import inspect

        with self.engine.connect() as conn:
            return bool(inspect(conn).get_table_names())


def _revision(conn: Connection) -> str | None:
    """The Alembic revision recorded in the database ``conn`` is on (see :meth:`Store.current_revision`)."""
    from sqlalchemy import inspect

    if not inspect(conn).has_table("alembic_version"):
        return None
    versions = conn.execute(text("SELECT version_num FROM alembic_version")).scalars().all()
    if len(versions) > 1:
        url = conn.engine.url.render_as_string(hide_password=True)
        raise StoreError(f"database {url} records several schema revisions: {sorted(versions)}")
    return str(versions[0]) if versions else None


@contextmanager
def migration_transaction(conn: Connection) -> Iterator[None]:
    """One transaction around a whole migration run, holding the lock that puts migrations of one database one
    after the other; it commits when the block ends. Two upgrades at once: the second waits here until the first
    has committed, and only then reads the revision (and finds the database at head).

    PostgreSQL: a transaction-scoped advisory lock (its DDL is transactional). SQLite: the transaction begins
    with ``BEGIN IMMEDIATE``, the database's writer lock, taken before anything is read (waiting up to the
    engine's busy timeout, :data:`MIGRATION_WAIT` for :meth:`Store.upgrade`). Alembic, handed a connection
    already in a transaction, runs every step inside it: on SQLite, where it would otherwise commit after each
    step (it takes SQLite's DDL for non-transactional), another upgrade could start between two steps from
    a half-done schema.
    """
    if conn.in_transaction():
        raise StoreError("a migration must begin its own transaction (it takes the migration lock first)")
    if conn.dialect.name == "sqlite":
        conn.execution_options(**{WRITE_OPTION: True})  # -> BEGIN IMMEDIATE (_install_sqlite_events)
    with conn.begin():
        if conn.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": advisory_key("referee.migrations")})
        yield


def alembic_config(url: str | URL | None = None) -> Any:
    """An Alembic ``Config`` for the shipped migrations (no ini file needed, any cwd)."""
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(migrations_dir()))
    if url is not None:
        rendered = parse_url(url).render_as_string(hide_password=False)
        cfg.set_main_option("sqlalchemy.url", rendered.replace("%", "%%"))
    return cfg


_REVISION_LINE = re.compile(r"^(down_)?revision\s*(?::[^=\n]*)?=\s*(.+)$", re.MULTILINE)


def head_revision() -> str | None:
    """The newest shipped migration, read from the migration files' text (no Alembic import, see
    :meth:`Store.current_revision`); Alembic itself decides when the files do not give one head."""
    revisions: set[str] = set()
    parents: set[str] = set()
    for path in sorted((migrations_dir() / "versions").glob("*.py")):
        for m in _REVISION_LINE.finditer(path.read_text(encoding="utf-8")):
            value = ast.literal_eval(m.group(2).strip())
            names = [value] if isinstance(value, str) else list(value or ())
            (parents if m.group(1) else revisions).update(str(n) for n in names)
    heads = revisions - parents
    if len(heads) == 1:
        return heads.pop()
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(alembic_config()).get_current_head()


def advisory_key(name: str) -> int:
    """A stable 63-bit key for a PostgreSQL advisory lock named ``name``."""
    return int.from_bytes(hashlib.sha256(name.encode()).digest()[:8], "big") & 0x7FFF_FFFF_FFFF_FFFF


def pg_advisory_xact_lock(conn: Connection | Session, name: str) -> None:
    """Take a transaction-scoped PostgreSQL advisory lock (released at commit or rollback)."""
    conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": advisory_key(name)})
