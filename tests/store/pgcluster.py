"""A private PostgreSQL server for tests: initdb into a temporary directory, a free loopback port.

Debian's ``postgresql`` package (installed by ``.ci/setup``) provides the binaries under
``/usr/lib/postgresql/<version>/bin``; the package's own cluster is never touched. initdb refuses
to run as root, so as root the server runs as the ``postgres`` system user (``runuser``); as any
other user it runs as that user. ``REFEREE_TEST_PG_URL`` skips all this and uses a server you
started yourself (it must allow CREATE DATABASE).

    with PostgresCluster.start() as pg:
        url = pg.create_database("t1")      # postgresql+psycopg://...@127.0.0.1:<port>/t1
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

import psycopg
from sqlalchemy.engine import make_url

SERVER_OPTIONS = ("-c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off "
                  "-c autovacuum=off "
                  "-c max_connections=200")


class PostgresUnavailable(RuntimeError):
    pass


def pg_bindir() -> Path:
    """The newest installed PostgreSQL server binaries."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                   key=lambda p: [int(x) for x in Path(p).parent.parent.name.split(".") if x.isdigit()])
    if not found:
        raise PostgresUnavailable("PostgreSQL server binaries not found under /usr/lib/postgresql "
                                  "(run 'bash .ci/setup' as root to install Debian's postgresql)")
    return Path(found[-1]).parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class PostgresCluster:
    """A running server; ``admin_url`` connects as its superuser."""

    admin_url: str
    directory: Path | None = None
    bindir: Path | None = None
    run_as: str | None = None
    port: int = 0
    databases: list[str] = field(default_factory=list)

    # -- starting and stopping -------------------------------------------------------------------------
    @classmethod
    def start(cls) -> PostgresCluster:
        external = os.environ.get("REFEREE_TEST_PG_URL")
        if external:
            return cls(admin_url=external)
        bindir = pg_bindir()
        run_as = None
        if os.geteuid() == 0:
            try:
                pwd.getpwnam("postgres")
            except KeyError:
                raise PostgresUnavailable("running as root but there is no 'postgres' user to run the server") \
                    from None
            run_as = "postgres"
        directory = Path(tempfile.mkdtemp(prefix="referee-pg-"))
        if run_as:
            shutil.chown(directory, run_as, run_as)
        cluster = cls(admin_url="", directory=directory, bindir=bindir, run_as=run_as)
        try:
            cluster._initdb()
            cluster._start_server()
        except BaseException:
            cluster.stop()
            raise
        return cluster

    def _cmd(self, *args: str) -> list[str]:
        return ["runuser", "-u", self.run_as, "--", *args] if self.run_as else list(args)

    def _run(self, *args: str, timeout: float = 120) -> None:
        proc = subprocess.run(self._cmd(*args), capture_output=True, text=True, timeout=timeout,
                              stdin=subprocess.DEVNULL)
        if proc.returncode != 0:
            raise PostgresUnavailable(f"{' '.join(args[:2])} failed ({proc.returncode}): "
                                      f"{proc.stderr.strip() or proc.stdout.strip()}")

    def _initdb(self) -> None:
        assert self.directory and self.bindir
        self._run(str(self.bindir / "initdb"), "-D", str(self.directory / "data"), "-U", "postgres", "-A", "trust",
                  "-E", "UTF8", "--locale=C.UTF-8", "--no-sync", "--no-instructions")

    def _start_server(self) -> None:
        assert self.directory and self.bindir
        last: Exception | None = None
        for _ in range(5):  # the free port can be taken between choosing and binding it
            self.port = free_port()
            try:
                self._run(str(self.bindir / "pg_ctl"), "-D", str(self.directory / "data"),
                          "-l", str(self.directory / "server.log"), "-w", "-t", "60",
                          "-o", f"-p {self.port} -k {self.directory} {SERVER_OPTIONS}", "start")
            except PostgresUnavailable as exc:
                last = exc
                time.sleep(0.2)
                continue
            self.admin_url = f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/postgres"
            return
        log = (self.directory / "server.log").read_text(errors="replace")[-2000:] \
            if (self.directory / "server.log").exists() else ""
        raise PostgresUnavailable(f"PostgreSQL did not start: {last}\n{log}")

    def stop(self) -> None:
        if self.directory is None:
            for name in list(self.databases):
                self.drop_database(name)
            return
        if self.bindir and (self.directory / "data" / "postmaster.pid").exists():
            subprocess.run(self._cmd(str(self.bindir / "pg_ctl"), "-D", str(self.directory / "data"), "-m",
                                     "immediate", "-w", "-t", "60", "stop"),
                           capture_output=True, stdin=subprocess.DEVNULL, timeout=90)
        shutil.rmtree(self.directory, ignore_errors=True)
        self.directory = None

    def __enter__(self) -> PostgresCluster:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- databases -----------------------------------------------------------------------------------
    def _admin(self) -> psycopg.Connection:
        u = make_url(self.admin_url)
        return psycopg.connect(host=u.host, port=u.port, user=u.username, password=u.password,
                               dbname=u.database or "postgres", autocommit=True)

    def url_for(self, name: str) -> str:
        return make_url(self.admin_url).set(database=name).render_as_string(hide_password=False)

    def create_database(self, name: str | None = None, *, template: str | None = None) -> str:
        """A new, empty database (or a copy of ``template``); returns its SQLAlchemy URL."""
        name = name or f"t_{uuid.uuid4().hex[:12]}"
        with self._admin() as conn:
            sql = f'CREATE DATABASE "{name}"' + (f' TEMPLATE "{template}"' if template else "")
            conn.execute(sql.encode())
        self.databases.append(name)
        return self.url_for(name)

    def drop_database(self, name: str) -> None:
        with self._admin() as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'.encode())
        if name in self.databases:
            self.databases.remove(name)


#: what a test could change of a database besides its rows: every relation and column, constraint, function,
#: trigger and type outside the system schemas (and the schema version: :func:`_shape`)
_SHAPE = """
SELECT md5(concat_ws('|',
  (SELECT string_agg(concat_ws(':', n.nspname, c.relname, c.relkind, a.attname, format_type(a.atttypid, a.atttypmod),
                               a.attnotnull), ',' ORDER BY n.nspname, c.relname, a.attnum)
     FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     LEFT JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
    WHERE n.nspname NOT IN ('pg_catalog', 'information_schema', 'pg_toast')),
  (SELECT string_agg(conname || pg_get_constraintdef(c.oid), ',' ORDER BY conname) FROM pg_constraint c
     JOIN pg_namespace n ON n.oid = c.connamespace WHERE n.nspname NOT IN ('pg_catalog', 'information_schema')),
  (SELECT string_agg(proname, ',' ORDER BY proname) FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
    WHERE n.nspname NOT IN ('pg_catalog', 'information_schema')),
  (SELECT string_agg(tgname, ',' ORDER BY tgname) FROM pg_trigger WHERE NOT tgisinternal),
  (SELECT string_agg(typname, ',' ORDER BY typname) FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
    WHERE n.nspname NOT IN ('pg_catalog', 'information_schema', 'pg_toast')),
  (SELECT string_agg(extname, ',' ORDER BY extname) FROM pg_extension)))
"""


def _shape(conn: psycopg.Connection) -> tuple[str, list[str]]:
    versions = [row[0] for row in conn.execute("SELECT version_num FROM alembic_version ORDER BY 1")] \
        if conn.execute("SELECT to_regclass('alembic_version')").fetchone()[0] else []
    return conn.execute(_SHAPE).fetchone()[0], versions


class ReusedDatabase:
    """One copy of a template database for test after test: emptied after each (its tables truncated, their
    sequences restarted) instead of dropped and copied again, which costs PostgreSQL several times as much.
    A test that changed more than rows (the schema, its version) gets the database dropped and copied afresh;
    so does every test when the template holds rows of its own besides the schema version."""

    def __init__(self, cluster: PostgresCluster, template: str) -> None:
        self.cluster, self.template = cluster, template
        self.name = f"t_reused_{uuid.uuid4().hex[:12]}"
        self.url = cluster.create_database(self.name, template=template)
        with self._connect() as conn:
            self.shape = _shape(conn)
            self.tables = [row[0] for row in conn.execute(
                "SELECT format('%I.%I', schemaname, tablename) FROM pg_tables "
                "WHERE schemaname NOT IN ('pg_catalog', 'information_schema') AND tablename <> 'alembic_version'")]
            self.reusable = not any(conn.execute(f"SELECT EXISTS (SELECT FROM {table})".encode()).fetchone()[0]
                                    for table in self.tables)

    def _connect(self) -> psycopg.Connection:
        u = make_url(self.url)
        return psycopg.connect(host=u.host, port=u.port, user=u.username, password=u.password, dbname=self.name,
                               autocommit=True)

    def reset(self) -> None:
        """Back to a copy of the template, for the next test."""
        if self.reusable:
            with self._connect() as conn:
                conn.execute("SELECT pg_terminate_backend(pid, 60000) FROM pg_stat_activity "
                             "WHERE datname = current_database() AND pid <> pg_backend_pid()")
                if _shape(conn) == self.shape:
                    filled = [row[0] for row in conn.execute(" UNION ALL ".join(
                        f"SELECT '{table}' WHERE EXISTS (SELECT FROM {table})" for table in self.tables).encode())]
                    if filled:   # only these: each table truncated costs new files for it and its indexes
                        conn.execute(f"TRUNCATE {', '.join(filled)} RESTART IDENTITY CASCADE".encode())
                    for (sequence,) in conn.execute("SELECT format('%I.%I', schemaname, sequencename) "
                                                    "FROM pg_sequences WHERE last_value IS NOT NULL").fetchall():
                        conn.execute(f"ALTER SEQUENCE {sequence} RESTART".encode())
                    return
        self.cluster.drop_database(self.name)
        self.cluster.create_database(self.name, template=self.template)
