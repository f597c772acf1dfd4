"""Stories the long model runs found (``benchmarks/model_service.py --seed 12``), told step by step through the
same machine, so each is checked on every CI run and not only when a random run happens upon it again.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest

from tests.model.machine import ServiceMachine
from tests.model.service import PLAYERS
from tests.model.test_service_model import sqlite_databases


@pytest.fixture
def machine(sqlite_template: Path, tmp_path: Path) -> Iterator[ServiceMachine]:
    kind = type("StoryService", (ServiceMachine,), {"databases": staticmethod(
        sqlite_databases(sqlite_template, tmp_path))})
    m = kind()
    m.start()
    yield m
    m.teardown()


def test_a_resigned_player_who_keeps_writing_is_answered_until_the_hours_error_answers_run_out(machine):
    w = machine.w
    machine.player_sends_a_command("Twonky", "RESIGN")
    machine.a_tick_runs()
    first_key = machine.keys["Twonky"][0]
    for _ in range(8):   # eight mails in 24 minutes, with the key she had
        w.write(PLAYERS["Twonky"], "orders", machine._key_block("Twonky", ["1: fly to the flag"], key=first_key),
                shape="bad orders")
        machine.a_tick_runs()
        w.jump(timedelta(minutes=3))

    hers = [o for o in w.outgoing() if o.recipients == [PLAYERS["Twonky"]] and o.kind == "rejection"]
    assert [o.subject for o in hers].count("RR-1: you resigned; nothing taken") == 5   # error_replies_per_hour
    assert [o.subject for o in hers][-1] == "RR-1: answers paused"
    assert sum(1 for o in w.outgoing() if o.subject.startswith("Answers paused for")) == 1   # the GM told once
    # the last two: refused and recorded, not answered (she is a former player, not a player of record)
    last = [m for m in w.incoming() if m.from_addr == PLAYERS["Twonky"]][-2:]
    assert all("not answered: too many error answers" in (m.reason or "") for m in last)
    machine.promises()   # every promise of the model holds


def test_a_half_hour_gap_in_a_run_of_five_minute_ticks_is_an_outage_but_a_half_hour_cron_is_not(machine):
    w = machine.w
    for _ in range(6):   # the cron every five minutes
        w.jump(timedelta(minutes=5))
        machine.a_tick_runs()
    deadline = w.read(lambda s: machine.w.game(s).turns[-1].deadline)
    w.jump(deadline.replace(tzinfo=w.now.tzinfo) - w.now - timedelta(minutes=40))   # the machine was off
    machine.a_tick_runs()
    for _ in range(6):   # the cron every five minutes again, up to ten minutes before the deadline
        w.jump(timedelta(minutes=5))
        machine.a_tick_runs()
    w.jump(timedelta(minutes=32))   # the cron misses six ticks; the deadline falls in the gap
    machine.a_tick_runs()
    assert w.ticks[-1][1].extended, "a gap six times the cadence is an outage"
    machine.promises()

    machine.a_slow_cron_runs(every=30, ticks=6)   # from now on a crontab every 30 minutes
    machine.a_slow_cron_runs(every=30, ticks=6)
    assert not any(summary.extended for _, summary in w.ticks[-6:]), "a steady 30-minute cron is no outage"
    machine.promises()
