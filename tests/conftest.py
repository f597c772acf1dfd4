"""Fixtures shared by the whole suite: real mail servers on loopback and real databases.

Mail: ``dovecot`` and ``smtp_server``, started once per session.

Databases: ``db_url`` (and ``store``) are parametrized over SQLite and a private PostgreSQL. Each test
gets a fresh database at the newest schema, from a template migrated once per session: a file copy for SQLite;
for PostgreSQL one copy (``CREATE DATABASE ... TEMPLATE``) emptied after each test, copied again only when a
test changed its schema (tests/store/pgcluster.py: ``ReusedDatabase``). ``empty_url`` gives a database with
no schema at all.
``REFEREE_TEST_NO_PG=1`` skips the PostgreSQL half.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from itertools import islice
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from hypothesis import HealthCheck, settings

from tests.servers.dovecot import Dovecot, running_dovecot
from tests.servers.forked import Forker, shared
from tests.servers.ports import SilentPort
from tests.servers.smtp import SmtpServer, start_smtp

if TYPE_CHECKING:  # the database modules are imported by the fixtures that use them
    from referee.store import Store
    from tests.store.pgcluster import PostgresCluster, ReusedDatabase

DATABASES = ["sqlite", "postgresql"]

# Property tests judge results, not speed: a busy CI machine must not fail them for being slow.
settings.register_profile("referee", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("referee")

#: tests of ten seconds or more (whole services, corpora, processes killed many times, Chromium), each part with
#: the seconds it takes on a quiet machine (roughly, from ``--durations``): they start first, dealt out across the
#: xdist workers (see :func:`_spread`), so that no worker is left running one alone at the end of the run
HEAVY = {"tests/model/": 70, "tests/intake/test_floods.py": 70, "tests/tick/test_outages.py": 70, "tests/corpus/": 50,
         "tests/e2e/test_reader_by_mail.py::test_two_hundred": 40, "tests/store/test_store_concurrency.py": 30,
         "tests/deploy/test_config_check.py::test_secrets": 26, "tests/tick/test_tick_processes.py": 25,
         "tests/tick/test_health.py::test_a_mail_server_down": 26, "tests/deploy/test_fresh_install.py": 25,
         "tests/deploy/test_send_test_smtp.py::test_with_no_pipe": 25, "tests/tick/test_workers.py": 25,
         "tests/test_assembly.py::test_the_demo_plays_the_factory": 24, "tests/intake/test_crash.py": 20,
         "tests/tick/test_kills.py": 20, "tests/e2e/test_options_by_mail.py": 20, "tests/intake/test_properties.py": 20,
         "tests/e2e/test_community_two_gms.py": 15, "tests/e2e/test_community_by_mail.py": 10,
         "tests/tick/test_tick.py::test_tick_builds_the_archive": 10}


def _part(item: pytest.Item) -> str | None:
    """The part of :data:`HEAVY` that ``item`` belongs to, if any."""
    return next((prefix for prefix in HEAVY if item.nodeid.startswith(prefix)), None)


def _heaviness(item: pytest.Item) -> int:
    """Where ``item`` goes: its part's place in :data:`HEAVY`, then other tests marked slow, then the rest."""
    part = _part(item)
    if part is not None:
        return list(HEAVY).index(part)
    return len(HEAVY) + (0 if item.get_closest_marker("slow") else 1)


def _spread(items: list[pytest.Item], workers: int) -> list[pytest.Item]:
    """``items`` (sorted) with the heavy parts dealt out to the starts of the workers' first batches, each part
    whole (its module's fixtures made once), the longest to the least loaded. pytest-xdist's ``--dist load``
    hands worker ``i`` items ``[i*c, (i+1)*c)`` first, ``c`` a quarter of its share, then more to whichever runs
    short; without this every heavy test would go to the first worker, one after another."""
    parts: dict[str, list[pytest.Item]] = {}
    for item in items:
        part = _part(item)
        if part is not None:
            parts.setdefault(part, []).append(item)
    loads = [0] * workers
    slots: list[list[pytest.Item]] = [[] for _ in range(workers)]
    for part in sorted(parts, key=lambda p: -HEAVY[p]):
        least = loads.index(min(loads))
        slots[least] += parts[part]
        loads[least] += HEAVY[part]
    chunk = max(len(items) // workers // 4, 2)
    if any(len(slot) > chunk for slot in slots):
        return items
    rest = iter(items[sum(map(len, slots)):])
    spread: list[pytest.Item] = []
    for slot in slots:
        spread += slot + list(islice(rest, chunk - len(slot)))
    return spread + list(rest)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The heavy tests first, each part in its usual order (every xdist worker sorts alike), dealt out across
    the workers."""
    items.sort(key=_heaviness)
    workers = int(getattr(config, "workerinput", {}).get("workercount", 1))
    if workers > 1:
        items[:] = _spread(items, workers)


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
    database: ReusedDatabase = request.getfixturevalue("pg_database")
    yield database.url
    database.reset()


@pytest.fixture(scope="session")
def pg_database(pg_cluster: PostgresCluster, pg_template: str) -> ReusedDatabase:
    """The PostgreSQL database of ``db_url``: a copy of the template, emptied after each test."""
    from tests.store.pgcluster import ReusedDatabase

    return ReusedDatabase(pg_cluster, pg_template)


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
def forker() -> Forker:
    """Starts ``referee`` processes forked from a Python that imported the product once
    (tests/servers/forked.py): for the tests that start dozens of them."""
    return shared()


@pytest.fixture
def imap_trap() -> Iterator[SilentPort]:
    """A loopback port that listens but never answers: where IMAP settings point when IMAP must not be
    used (``knocked()`` tells whether anyone tried)."""
    trap = SilentPort()
    yield trap
    trap.close()
