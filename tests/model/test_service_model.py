"""The model-based test of the whole service (issue 41; the machine is in ``tests/model/machine.py``).

CI runs it derandomized on SQLite: the same examples every run, no deadline. With ``REFEREE_MODEL_PG=1`` it
runs on PostgreSQL too; ``benchmarks/model_service.py`` runs it long and random.
"""

from __future__ import annotations

import os
import shutil
import uuid
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, settings
from hypothesis.stateful import run_state_machine_as_test

from tests.model.machine import ServiceMachine

#: what CI runs: derandomized, no deadline (CI runs under load), small enough for 90 seconds on 2 cores; no
#: shrinking (each step of a whole service costs a tick: a failing example is printed as it was found, with
#: the story of its mails, jumps and ticks in the message)
CI = settings(derandomize=True, deadline=None, max_examples=20, stateful_step_count=25, database=None,
              phases=[Phase.explicit, Phase.generate], suppress_health_check=list(HealthCheck),
              report_multiple_bugs=False)


def sqlite_databases(template: Path, where: Path) -> Callable[[], tuple[str, Callable[[], None]]]:
    def fresh() -> tuple[str, Callable[[], None]]:
        path = where / f"model-{uuid.uuid4().hex[:8]}.sqlite3"
        shutil.copy(template, path)
        return f"sqlite:///{path}", lambda: path.unlink(missing_ok=True)
    return fresh


# a whole service per example: far below this on a quiet machine (45 s CPU), but a loaded one must not cut it off
@pytest.mark.timeout(1200)
def test_the_service_keeps_its_promises_on_sqlite(sqlite_template: Path, tmp_path: Path):
    machine = type("SqliteService", (ServiceMachine,), {"databases": staticmethod(
        sqlite_databases(sqlite_template, tmp_path))})
    run_state_machine_as_test(machine, settings=CI)


@pytest.mark.timeout(1200)
@pytest.mark.skipif(os.environ.get("REFEREE_MODEL_PG") != "1", reason="REFEREE_MODEL_PG=1 runs it on PostgreSQL")
def test_the_service_keeps_its_promises_on_postgresql(request: pytest.FixtureRequest):
    cluster = request.getfixturevalue("pg_cluster")
    template = request.getfixturevalue("pg_template")

    def fresh() -> tuple[str, Callable[[], None]]:
        url = cluster.create_database(template=template)
        return url, lambda: cluster.drop_database(url.rsplit("/", 1)[1])
    machine = type("PostgresService", (ServiceMachine,), {"databases": staticmethod(fresh)})
    run_state_machine_as_test(machine, settings=CI)
