"""Real `referee tick` processes: overlapping ticks and ticks killed mid-way never resolve a turn twice
and never lose a mail. The kills are at points of a tick's processor time, not of the clock: they land
alike on a quiet machine and a loaded one (see tests/servers/processes.py)."""

from __future__ import annotations

import random
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

from sqlalchemy import select

from referee import games as g
from referee.store import Store
from referee.store.mail_models import OutgoingMail
from referee.store.models import AuditEntry
from tests.servers.forked import Forked, shared
from tests.servers.processes import kill_at_cpu, run_measured

T0 = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)
GAMES = ("RR-1", "RR-2", "RR-3")
#: ticks started and killed at a random point each
KILLS = 8


def due_games(store: Store) -> None:
    """Three games whose first turn passed its deadline with no orders: every one is due."""
    with store.write() as s:
        for code in GAMES:
            game = g.create_game(s, course="sprint", code=code, seed=code, deadline_seconds=3 * 3600,
                                 reminder_seconds=0, now=T0, gm_address="gm@example.test")
            for robot in ("Twonky", "Hammer", "Zoom"):
                g.add_player(s, game, email=f"{robot.lower()}.{code.lower()}@example.test", robot=robot, now=T0)
            g.start_game(s, game, now=T0)


def env(db_url: str, tmp: Path, now: datetime, lock: str = "tick.lock") -> dict[str, str]:
    return {"PATH": "/usr/bin:/bin", "HOME": str(tmp), "REFEREE_CONFIG": "", "REFEREE_DATABASE_URL": db_url,
            "REFEREE_TRANSPORT": "maildir", "REFEREE_MAILDIR_IN": str(tmp / "in"),
            "REFEREE_MAILDIR_OUT": str(tmp / "out"), "REFEREE_LOCK_FILE": str(tmp / lock),
            "REFEREE_REFEREE_ADDRESS": "referee@example.test", "REFEREE_TICK_INTERVAL": "86400",
            "REFEREE_NOW": now.isoformat()}


def start_tick(db_url: str, tmp: Path, now: datetime, lock: str = "tick.lock", *,
               forked: bool = False) -> subprocess.Popen[bytes] | Forked:
    """A ``referee tick``: a fresh interpreter, or ``forked`` from one that imported the product once
    (tests/servers/forked.py)."""
    if forked:
        return shared().start(["tick"], env=env(db_url, tmp, now, lock), cwd=tmp)
    return subprocess.Popen([sys.executable, "-m", "referee.cli", "tick"], env=env(db_url, tmp, now, lock),
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=str(tmp))


def finish(proc: subprocess.Popen[bytes] | Forked) -> float:
    """Let a tick finish, which it must do cleanly; the processor time it used."""
    out, err, cpu = run_measured(proc)
    assert proc.returncode == 0, (out + err).decode(errors="replace")
    return cpu


def resolutions(store: Store) -> dict[str, int]:
    """How many times each game's turn 1 was resolved, by the audit log."""
    with store.read() as s:
        codes = {game.id: game.code for game in g.list_games(s)}
        entries = s.scalars(select(AuditEntry).where(AuditEntry.action == "turn.resolve",
                                                     AuditEntry.turn_number == 1)).all()
    counts: dict[str, int] = {}
    for entry in entries:
        counts[codes[entry.game_id]] = counts.get(codes[entry.game_id], 0) + 1
    return counts


def check_everything_once(store: Store, tmp: Path) -> None:
    assert resolutions(store) == dict.fromkeys(GAMES, 1)
    with store.read() as s:
        assert {game.code: game.turn_number for game in g.list_games(s)} == dict.fromkeys(GAMES, 2)
        mails = s.scalars(select(OutgoingMail)).all()
    # each game: a report for each of 3 players (saying who was late) and the GM's copy
    assert len(mails) == len(GAMES) * (3 + 1)
    assert {m.status for m in mails} == {"sent"}
    delivered = list((tmp / "out" / "new").iterdir())
    assert len(delivered) == len(mails)  # a mail sent again replaces its own file: none lost, none doubled


def test_three_ticks_at_once_resolve_each_turn_once(store, db_url, tmp_path):
    due_games(store)
    later = T0 + timedelta(hours=4)
    # separate lock files: the store alone must keep them from resolving a turn twice
    ticks = [start_tick(db_url, tmp_path, later, lock=f"lock{i}", forked=True) for i in range(3)]
    for proc in ticks:
        finish(proc)
    check_everything_once(store, tmp_path)


def test_ticks_killed_at_random_moments_leave_nothing_half_done(store, db_url, tmp_path):
    due_games(store)
    idle = finish(start_tick(db_url, tmp_path, T0))  # nothing due yet: start-up and a look at the store
    rng = random.Random(7)
    later = T0 + timedelta(hours=4)
    # from late in the start-up to well into the work of resolving and sending: a kill aimed before 0.8x
    # the start-up lands whatever the machine's load, the others while there is work left
    points = [rng.uniform(0.4, 1.8) * idle for _ in range(KILLS)]
    kills = sum(kill_at_cpu(start_tick(db_url, tmp_path, later), point) for point in points)
    assert kills >= sum(point < 0.8 * idle for point in points) >= 2
    # an hour on, the leases of mails a killed tick was sending have run out: they go again
    finish(start_tick(db_url, tmp_path, later + timedelta(hours=1)))
    check_everything_once(store, tmp_path)
