"""Real ``referee`` processes at once: no turn resolved twice, no accepted order lost (SQLite and PostgreSQL).

To make the processes really collide, the test first takes the game's lock itself (the row lock on
PostgreSQL, the writer lock on SQLite), starts the processes, waits until they are all stuck behind
it, and then lets go: they all rush in together.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import func, select, text

from referee import games as g
from referee.store import Store
from referee.store.db import make_engine, migration_transaction
from referee.store.locking import lock_game
from referee.store.models import AuditEntry, Order, Player, Turn
from tests.servers.processes import blocked_on, patience

from .conftest import first_cards, new_game, referee_process

EXIT_NOTHING_DONE = 3


def waiting_backends(store: Store) -> int:
    with store.engine.connect() as conn:
        return int(conn.execute(text("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                                     "AND wait_event_type = 'Lock'")).scalar_one())


@contextmanager
def everyone_waits(store: Store, code: str, how_many: int) -> Iterator[list]:
    """Hold the game, let the caller start ``how_many`` processes, wait until they are all blocked on
    it, then release it. The caller appends its processes to the yielded list."""
    with store.write() as s:
        lock_game(s, code)  # PostgreSQL: the row lock; SQLite: this write session holds the writer lock
        s.execute(text("SELECT 1"))
        procs: list = []
        yield procs
        all_queued(store, procs, how_many)


@contextmanager
def migrations_wait(url: str, how_many: int) -> Iterator[list]:
    """:func:`everyone_waits` for migrations: hold the lock every migration of this database takes first
    (PostgreSQL: the advisory lock; SQLite: the writer lock) while the caller starts ``how_many`` processes."""
    engine = make_engine(url, for_migrations=True)
    try:
        with engine.connect() as conn, migration_transaction(conn), Store(url) as store:
            procs: list = []
            yield procs
            all_queued(store, procs, how_many)
    finally:
        engine.dispose()


def all_queued(store: Store, procs: list, how_many: int) -> None:
    """Until the ``how_many`` processes started are all waiting for the lock this process holds."""
    assert len(procs) == how_many
    deadline = time.monotonic() + patience(60)
    # PostgreSQL: every process queued for the lock; SQLite: every one seen asleep with the database
    # open (waiting for the writer lock), however long the start-up took
    waiting: set[int] = set()
    while (waiting_backends(store) if store.dialect == "postgresql" else len(waiting)) < how_many:
        assert time.monotonic() < deadline, "the processes never queued for the lock"
        if store.dialect == "sqlite":
            waiting |= {p.pid for p in procs if blocked_on(p.pid, Path(store.engine.url.database or ""))}
        time.sleep(0.05)
    running = [p for p in procs if p.poll() is None]
    assert len(running) == how_many, "a process finished without waiting for the lock"


def finish(procs: list) -> list[tuple[int, str, str]]:
    out = []
    for p in procs:
        stdout, stderr = p.communicate(timeout=patience(120))
        out.append((p.returncode, stdout, stderr))
    return out


def resolutions(store: Store, code: str, number: int) -> int:
    with store.read() as s:
        game = g.get_game(s, code)
        return s.scalar(select(func.count()).select_from(AuditEntry).where(
            AuditEntry.game_id == game.id, AuditEntry.action == "turn.resolve", AuditEntry.turn_number == number))


def test_four_processes_resolving_one_turn_at_once_resolve_it_exactly_once(store, db_url):
    code = new_game(store, ("Twonky", "Hammer", "Zoom"))
    for robot in ("Twonky", "Hammer", "Zoom"):
        with store.write() as s:
            g.submit_program(s, code, robot, first_cards(store, code, robot))
    with everyone_waits(store, code, 4) as procs:
        procs.extend(referee_process(db_url, "game", "resolve", code, "--turn", "1") for _ in range(4))
    results = finish(procs)
    done = [r for r in results if r[0] == 0]
    assert len(done) == 1, results
    assert done[0][1].startswith(f"{code}: turn 1 resolved")
    for rc, stdout, _ in results:
        if rc != 0:
            assert rc == EXIT_NOTHING_DONE and "turn 1 of RR-1 is already resolved (nothing done)" in stdout
    assert resolutions(store, code, 1) == 1
    with store.read() as s:
        game = g.get_game(s, code)
        assert game.turn_number == 2
        assert [t.number for t in s.scalars(select(Turn).where(Turn.game_id == game.id))] == [1, 2]
        _, same = g.replay_turn(s, game, 1)
        assert same


def test_orders_racing_a_resolution_are_either_played_or_refused_as_stale_never_lost(store, db_url):
    robots = ("Twonky", "Hammer", "Zoom", "Spin")
    code = new_game(store, robots)
    for turn in (1, 2, 3):
        programs = {robot: first_cards(store, code, robot) for robot in robots}
        with everyone_waits(store, code, 6) as procs:
            submitters = {robot: referee_process(db_url, "game", "program", code, robot, ", ".join(programs[robot]),
                                                 "--turn", str(turn)) for robot in robots}
            procs.extend(submitters.values())
            procs.extend(referee_process(db_url, "game", "resolve", code, "--turn", str(turn), "--fill", "random")
                         for _ in range(2))
        results = dict(zip([*robots, "resolver-1", "resolver-2"], finish(procs), strict=True))
        assert sorted(results[r][0] for r in ("resolver-1", "resolver-2")) == [0, EXIT_NOTHING_DONE], results
        with store.read() as s:
            game = g.get_game(s, code)
            played = g.get_turn(s, game, turn)
            sources = {o.player.robot: o.source for o in s.scalars(
                select(Order).where(Order.turn_id == played.id, Order.active.is_(True)))}
            for robot in robots:
                rc, stdout, stderr = results[robot]
                if rc == 0:  # accepted: it must be what the robot played
                    assert stdout.startswith(f"{code} turn {turn}, {robot}: ")
                    assert played.programs[robot] == programs[robot] and sources[robot] == "cli"
                else:  # refused: the turn was gone, and the robot played the missing-orders program
                    assert f"orders for turn {turn} of {code} are stale" in stderr, results[robot]
                    assert sources[robot] == "auto"
            finished = game.status == "finished"
        assert resolutions(store, code, turn) == 1
        if finished:  # the programs won it (about 1 run in 20, at turn 3): the loser heard "already resolved"
            break


def test_players_joining_at_once_all_get_a_seat_of_their_own(store, db_url):
    code = new_game(store, (), start=False)
    names = [f"Bot{i}" for i in range(1, 5)]  # the test course takes four
    with everyone_waits(store, code, len(names)) as procs:
        procs.extend(referee_process(db_url, "game", "add-player", code, f"{n.lower()}@example.test", n)
                     for n in names)
    results = finish(procs)
    assert all(rc == 0 for rc, _, _ in results), results
    with store.read() as s:
        players = s.scalars(select(Player).order_by(Player.seat)).all()
        assert sorted(p.robot for p in players) == names
        assert [p.seat for p in players] == [1, 2, 3, 4]
        assert len({p.colour for p in players}) == 4


def test_workers_resolving_every_ready_game_share_the_games_out_once_each(store, db_url):
    codes = [new_game(store, ("Twonky", "Hammer"), seed=f"worker-{i}") for i in range(6)]
    for code in codes:
        for robot in ("Twonky", "Hammer"):
            with store.write() as s:
                g.submit_program(s, code, robot, first_cards(store, code, robot))
    procs = [referee_process(db_url, "game", "resolve", "--all", "--no-wait") for _ in range(3)]
    results = finish(procs)
    assert all(rc in (0, EXIT_NOTHING_DONE) for rc, _, _ in results), results
    lines = [line for _, stdout, _ in results for line in stdout.splitlines() if "resolved," in line]
    assert sorted(line.split(":")[0] for line in lines) == sorted(codes)
    for code in codes:
        assert resolutions(store, code, 1) == 1


def test_a_worker_that_may_not_wait_passes_over_a_game_another_holds(store, db_url):
    if store.dialect != "postgresql":
        # SQLite has one writer lock for the whole file: every writer waits for it (the next test shows it)
        code = new_game(store, ("Twonky",))
        with everyone_waits(store, code, 1) as procs:
            procs.append(referee_process(db_url, "game", "resolve", code, "--no-wait", "--fill", "random"))
        assert finish(procs)[0][0] == 0
        return
    held, free = new_game(store, ("Twonky",), seed="held"), new_game(store, ("Hammer",), seed="free")
    with store.write() as s:
        lock_game(s, held)
        proc = referee_process(db_url, "game", "resolve", held, free, "--no-wait", "--fill", "random")
        rc, stdout, stderr = finish([proc])[0]
    assert rc == 0, stderr
    assert f"{held} is being changed by another process (nothing done)" in stdout
    assert f"{free}: turn 1 resolved" in stdout
    assert resolutions(store, held, 1) == 0 and resolutions(store, free, 1) == 1


def test_upgrades_of_an_empty_database_at_once_migrate_it_once_and_all_end_at_head(empty_url):
    from referee.store import head_revision

    with migrations_wait(empty_url, 3) as procs:
        procs.extend(referee_process(empty_url, "db", "upgrade") for _ in range(3))
    results = finish(procs)
    assert all(rc == 0 for rc, _, _ in results), results
    # one did the work; the others waited for it, then found the database at head and did nothing
    said = sorted(stdout.strip().rsplit(": ", 1)[1] for _, stdout, _ in results)
    head = head_revision()
    assert said == [f"{head} -> {head}", f"{head} -> {head}", f"empty -> {head}"], results
    with Store(empty_url) as store:
        assert store.current_revision() == head
