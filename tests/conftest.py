"""Fixtures shared by the whole suite: real mail servers on loopback and real databases.

Mail: ``dovecot`` and ``smtp_server``, started once per session.

Databases: ``db_url`` (and ``store``) are parametrized over SQLite and a private PostgreSQL. Each test
gets its own database copied from a template migrated once per session (a file copy for SQLite,
``CREATE DATABASE ... TEMPLATE`` for PostgreSQL). ``empty_url`` gives a database with no schema at all.
``REFEREE_TEST_NO_PG=1`` skips the PostgreSQL half.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from hypothesis import HealthCheck, settings

from tests.servers.dovecot import Dovecot, running_dovecot
from tests.servers.forked import Forker
from tests.servers.ports import SilentPort
from tests.servers.smtp import SmtpServer, start_smtp

if TYPE_CHECKING:  # the database modules are imported by the fixtures that use them
    from referee.store import Store
    from tests.store.pgcluster import PostgresCluster

DATABASES = ["sqlite", "postgresql"]

# Property tests judge results, not speed: a busy CI machine must not fail them for being slow.
settings.register_profile("referee", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("referee")

#: tests of tens of seconds each (whole services, corpora, processes killed many times), longest first: collected
#: before the others, so that pytest-xdist hands them out at the start and no worker is left running one alone
#: at the end of the run
HEAVY = ("tests/model/", "tests/intake/test_crash.py", "tests/tick/test_kills.py", "tests/deploy/test_fresh_install.py",
         "tests/store/test_store_concurrency.py", "tests/e2e/test_options_by_mail.py",
         "tests/e2e/test_reader_by_mail.py::test_two_hundred", "tests/e2e/test_community_two_gms.py",
         "tests/e2e/test_community_by_mail.py", "tests/corpus/", "tests/tick/test_workers.py",
         "tests/tick/test_tick_processes.py")


def _heaviness(item: pytest.Item) -> int:
    """Where ``item`` goes: its place in :data:`HEAVY`, then other tests marked slow, then the rest."""
    for rank, prefix in enumerate(HEAVY):
        if item.nodeid.startswith(prefix):
            return rank
    return len(HEAVY) + (0 if item.get_closest_marker("slow") else 1)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The heavy tests first, each part in its usual order (every xdist worker sorts alike)."""
    items.sort(key=_heaviness)


@pytest.fixture(scope="session")
def dovecot() -> Iterator[Dovecot]:
    """A private Dovecot with users referee@, gm@, alice@ ... player20@example.test (password: user-pw).

    Its directory is not under pytest's tmp (mode 0700): Dovecot's own users must reach the files.
    """
    with running_dovecot() as server:
        yield server


@pytest.fixture(scope="session")
def smtp_server(dovecot: Dovecot) -> Iterator[SmtpServer]:
    """An SMTP server on loopback delivering into the Dovecot above."""
    server = start_smtp(dovecot.lmtp_port)
    yield server
    server.stop()


# -- databases -------------------------------------------------------------------------------------
@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[PostgresCluster]:
    from tests.store.pgcluster import PostgresCluster, PostgresUnavailable

    if os.environ.get("REFEREE_TEST_NO_PG") == "1":
        pytest.skip("REFEREE_TEST_NO_PG=1: PostgreSQL tests skipped")
    try:
        cluster = PostgresCluster.start()
    except PostgresUnavailable as exc:
        pytest.fail(f"{exc} (set REFEREE_TEST_NO_PG=1 to skip the PostgreSQL tests)", pytrace=False)
    yield cluster
    cluster.stop()


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from referee.store import Store

    path = tmp_path_factory.mktemp("template") / "template.sqlite3"
    with Store(f"sqlite:///{path}") as store:
        store.upgrade()
    return path


@pytest.fixture(scope="session")
def pg_template(pg_cluster: PostgresCluster) -> str:
    from referee.store import Store

    name = "referee_template"
    with Store(pg_cluster.create_database(name)) as store:
        store.upgrade()
    return name


@pytest.fixture(params=DATABASES)
def dialect(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def db_url(dialect: str, request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh database at the newest schema."""
    if dialect == "sqlite":
        path = tmp_path / "referee.sqlite3"
        shutil.copy(request.getfixturevalue("sqlite_template"), path)
        yield f"sqlite:///{path}"
        return
    cluster: PostgresCluster = request.getfixturevalue("pg_cluster")
    url = cluster.create_database(template=request.getfixturevalue("pg_template"))
    yield url
    cluster.drop_database(url.rsplit("/", 1)[1])


@pytest.fixture
def empty_url(dialect: str, request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh database with no tables at all."""
    if dialect == "sqlite":
        yield f"sqlite:///{tmp_path / 'empty.sqlite3'}"
        return
    cluster: PostgresCluster = request.getfixturevalue("pg_cluster")
    url = cluster.create_database()
    yield url
    cluster.drop_database(url.rsplit("/", 1)[1])


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    from referee.store import Store

    with Store(db_url) as s:
        yield s


@pytest.fixture(scope="session")
def forker() -> Iterator[Forker]:
    """Starts ``referee`` processes forked from a Python that imported the product once
    (tests/servers/forked.py): for the tests that kill dozens of them."""
    forker = Forker()
    yield forker
    forker.close()


@pytest.fixture
def imap_trap() -> Iterator[SilentPort]:
    """A loopback port that listens but never answers: where IMAP settings point when IMAP must not be
    used (``knocked()`` tells whether anyone tried)."""
    trap = SilentPort()
    yield trap
    trap.close()
