"""Many games, several workers: the due turns are found by the tick's scan, and workers running at
once on PostgreSQL share them, each turn resolved once and each mail queued once."""

from __future__ import annotations

import json
import time
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import select, text

from referee import games as g
from referee.cron.workers import claim
from referee.store import Store
from referee.store.mail_models import OutgoingMail
from referee.store.models import AuditEntry, Game, Turn, TurnNotice
from tests.servers.forked import Forked, shared
from tests.servers.processes import patience

from .test_tick_processes import env

T0 = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)
ROBOTS = ("Twonky", "Hammer")


def make_games(store: Store, count: int, *, late_every: int = 2) -> None:
    """``count`` two-player games on sprint with a two-hour deadline. In every ``late_every``-th game
    only Twonky sends a program (the turn is due at the deadline); in the others both do (due at once)."""
    with store.write() as s:
        for i in range(count):
            game = g.create_game(s, course="sprint", code=f"W-{i}", seed=f"w{i}", deadline_seconds=2 * 3600,
                                 settle_seconds=0, reminder_seconds=3600, gm_address="gm@example.test", now=T0)
            for robot in ROBOTS:
                g.add_player(s, game, email=f"{robot.lower()}.{i}@example.test", robot=robot, now=T0)
            turn = g.start_game(s, game, now=T0)
            for robot in ROBOTS if i % late_every else ROBOTS[:1]:
                g.submit_program(s, game, robot, turn.hands[robot][:5], now=T0 + timedelta(minutes=10))


def start_worker(db_url: str, tmp: Path, now: datetime, name: str) -> Forked:
    """A ``referee resolve-due`` worker, forked from a Python that imported the product once (servers/forked.py)."""
    return shared().start(["resolve-due", "--worker", name, "-v"], env=env(db_url, tmp, now), cwd=tmp, text=True)


def run_workers(db_url: str, tmp: Path, now: datetime, workers: int) -> list[str]:
    """Start ``workers`` workers together: they are held at their first look at the games (the test locks the
    table) until every one has started, so that each gets its share however slowly the machine starts them."""
    with Store(db_url) as store, store.engine.connect() as holder, holder.begin():
        holder.execute(text("LOCK TABLE games IN ACCESS EXCLUSIVE MODE"))
        procs = [start_worker(db_url, tmp, now, f"w{k}") for k in range(workers)]
        deadline = time.monotonic() + patience(120)
        while waiting(store) < workers:
            assert all(p.poll() is None for p in procs), "a worker ended without looking at the games"
            assert time.monotonic() < deadline, "the workers never reached the games"
            time.sleep(0.05)
    outs = []
    for proc in procs:
        out, err = proc.communicate(timeout=1800)
        assert proc.returncode == 0, err[-2000:]
        outs.append(out + err)
    return outs


def waiting(store: Store) -> int:
    """How many sessions of this database wait for a lock (asked in a transaction of its own: PostgreSQL shows
    one transaction the activity as it was when it first looked)."""
    with store.engine.connect() as conn:
        return int(conn.execute(text("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                                     "AND wait_event_type = 'Lock'")).scalar_one())


def check_once(store: Store, games: int) -> None:
    """Every game's turn 1 resolved exactly once, and every mail of it queued once."""
    with store.read() as s:
        codes = {game.id: game.code for game in s.scalars(select(Game))}
        resolved = Counter(codes[e.game_id] for e in s.scalars(
            select(AuditEntry).where(AuditEntry.action == "turn.resolve", AuditEntry.turn_number == 1)))
        mails = s.scalars(select(OutgoingMail).where(OutgoingMail.game_id.is_not(None))).all()
        numbers = {game.code: game.turn_number for game in s.scalars(select(Game))}
        late = Counter(game_id for game_id, in s.execute(
            select(Turn.game_id).join(TurnNotice, TurnNotice.turn_id == Turn.id).where(TurnNotice.kind == "late")))
    assert resolved == Counter({code: 1 for code in codes.values()})
    assert set(numbers.values()) == {2}
    per_recipient = Counter((m.game_id, m.kind, m.subject, json.dumps(m.recipients)) for m in mails)
    assert per_recipient and max(per_recipient.values()) == 1
    reports = Counter(m.game_id for m in mails if m.kind == "turn_report")
    assert len(reports) == games and set(reports.values()) == {len(ROBOTS)}
    # the games where Hammer was late (every other one) are recorded once as late: the results mail says so
    assert late == Counter({gid: 1 for gid, code in codes.items() if int(code.split("-")[1]) % 2 == 0})


@pytest.fixture
def dialect() -> str:
    return "postgresql"


def test_a_claimed_game_is_passed_over_by_a_second_worker(store):
    make_games(store, 1)
    with store.read() as s:
        game_id = g.get_game(s, "W-0").id
    with claim(store, game_id) as first, claim(store, game_id) as second:
        assert (first, second) == (True, False)
    with claim(store, game_id) as again:
        assert again


def test_two_workers_share_twenty_due_turns(store, db_url, tmp_path):
    make_games(store, 20)
    now = T0 + timedelta(hours=2, minutes=5)
    outs = run_workers(db_url, tmp_path, now, 2)
    check_once(store, 20)
    counts = [int(out.split("resolved ")[1].split(",")[0]) for out in outs]
    assert sum(counts) == 20


@pytest.mark.slow
@pytest.mark.timeout(3600)
def test_two_workers_share_two_hundred_due_turns(store, db_url, tmp_path):
    make_games(store, 200)
    now = T0 + timedelta(hours=2, minutes=5)
    outs = run_workers(db_url, tmp_path, now, 2)
    check_once(store, 200)
    counts = [int(out.split("resolved ")[1].split(",")[0]) for out in outs]
    assert sum(counts) == 200 and min(counts) > 0
