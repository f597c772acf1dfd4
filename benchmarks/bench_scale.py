"""A busy host: N live games, the idle tick, and a tick that resolves N due turns (one or more workers).

    .venv/bin/python benchmarks/bench_scale.py --games 100                 # SQLite, a new file
    .venv/bin/python benchmarks/bench_scale.py --games 1000 --postgresql   # a private PostgreSQL (fsync off)
    .venv/bin/python benchmarks/bench_scale.py --games 100 --postgresql --workers 1,2

Makes N four-player games on one course with the store API (no start mails: their pictures are the
same work as a turn's), then times:

- idle tick: ``referee tick`` (Maildir transport, empty mailbox, empty outbox) with no turn due, a few
  runs (median); this is what cron pays every five minutes on a quiet host;
- due tick: every player of every game sends a program, then one tick finds the N due turns,
  resolves them, draws their pictures, queues their mails and sends the outbox (to the Maildir
  transport: files, no mail server; a real server's speed is ``bench_turn_mail.py``'s). Wall time, and
  the process's CPU time per turn;
- ``--queue-runs K``: K times, every game's next turn made due and ``resolve_due`` run alone (resolved,
  drawn and queued, nothing sent): the CPU a turn of each run;
- with ``--workers 1,2`` (PostgreSQL): the same N due turns shared by that many worker processes
  (``referee.cron.workers.resolve_due``), each a process of its own, all started together; wall time.
- ``--profile``: where the CPU of one due turn goes (cProfile over a few turns in this process).

The database is made once per run; each measurement of due turns plays the next turn of every game.
"""

from __future__ import annotations

import argparse
import cProfile
import multiprocessing
import os
import pstats
import queue
import statistics
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from referee import games as g
from referee.common.config import Settings
from referee.cron.tick import tick
from referee.store import Store

NAMES = ("Twonky", "Hammer", "Zoom", "Spin", "Squash", "Trundle", "Hulk", "Bishop")
T0 = datetime(2026, 3, 1, 12, tzinfo=UTC)


def make_games(store: Store, n: int, players: int, course: str) -> list[str]:
    codes = []
    batch = 50
    for first in range(0, n, batch):
        with store.write() as s:
            for i in range(first, min(n, first + batch)):
                code = f"S-{i + 1}"
                game = g.create_game(s, course=course, code=code, seed=f"scale-{i}", deadline_seconds=5 * 86400,
                                     reminder_seconds=86400, gm_address="gm@example.test", now=T0, actor="bench",
                                     settle_seconds=0)
                for name in NAMES[:players]:
                    g.add_player(s, game, email=f"{name.lower()}{i}@example.test", robot=name, now=T0)
                g.start_game(s, game, actor="bench", now=T0)
                codes.append(code)
    return codes


def clone_games(store: Store, codes: list[str], have: list[str], n: int) -> list[str]:
    """Copies of the games ``codes`` (their rows: game, players, turns) added to ``have`` until there are ``n``
    games: what a host with many idle games holds, made in seconds instead of starting each game (codes
    ``S-<k>``)."""
    from sqlalchemy import insert, select

    from referee.store.models import Game, Player, Turn

    with store.read() as s:
        ids = [g.get_game(s, code).id for code in codes]
        games = [dict(r._mapping) for r in s.execute(select(Game.__table__).where(Game.id.in_(ids)))]
        players = [dict(r._mapping) for r in s.execute(select(Player.__table__).where(Player.game_id.in_(ids)))]
        turns = [dict(r._mapping) for r in s.execute(select(Turn.__table__).where(Turn.game_id.in_(ids)))]
        next_game = (s.scalar(select(Game.id).order_by(Game.id.desc()).limit(1)) or 0) + 1
        next_player = (s.scalar(select(Player.id).order_by(Player.id.desc()).limit(1)) or 0) + 1
        next_turn = (s.scalar(select(Turn.id).order_by(Turn.id.desc()).limit(1)) or 0) + 1
    out = list(have)
    batch = 2000
    while len(out) < n:
        rows_g, rows_p, rows_t = [], [], []
        for k in range(min(batch, n - len(out))):
            template = games[k % len(games)]
            new_id = next_game
            next_game += 1
            rows_g.append({**template, "id": new_id, "code": f"S-{len(out) + 1}"})
            out.append(f"S-{len(out) + 1}")
            for p in players:
                if p["game_id"] == template["id"]:
                    rows_p.append({**p, "id": next_player, "game_id": new_id,
                                   "email": p["email"].replace("@", f".{new_id}@")})
                    next_player += 1
            for t in turns:
                if t["game_id"] == template["id"]:
                    rows_t.append({**t, "id": next_turn, "game_id": new_id})
                    next_turn += 1
        with store.engine.begin() as conn:
            conn.execute(insert(Game.__table__), rows_g)
            conn.execute(insert(Player.__table__), rows_p)
            conn.execute(insert(Turn.__table__), rows_t)
    if store.dialect == "postgresql":
        from sqlalchemy import text

        with store.engine.begin() as conn:
            for table in ("games", "players", "turns"):
                conn.execute(text(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                                  f"(SELECT max(id) FROM {table}))"))
            conn.execute(text("ANALYZE"))
    return out


def send_all_programs(store: Store, codes: list[str], now: datetime) -> int:
    """Every live player of every running game sends the first cards of the hand."""
    sent = 0
    with store.write() as s:
        for code in codes:
            game = g.get_game(s, code)
            turn = g.open_turn(s, game)
            if turn is None:
                continue
            for p in g.waiting_for(s, game):
                locked = turn.locked.get(p.robot) or {}
                hand = list(turn.hands[p.robot])
                cards = [locked.get(str(r)) or hand.pop(0) for r in range(1, 6)]
                g.submit_program(s, game, p.robot, cards, now=now)
                sent += 1
    return sent


def settings_for(url: str, tmp: Path) -> Settings:
    return Settings(database_url=url, referee_address="referee@example.test", gm_address="gm@example.test",
                    gm_secret="bench", transport="maildir", maildir_in=str(tmp / "in"), maildir_out=str(tmp / "out"),
                    lock_file=str(tmp / "tick.lock"), tick_interval=300)


def _worker(url: str, tmp: str, now: datetime, name: str, start: multiprocessing.synchronize.Event,
            out: multiprocessing.Queue) -> None:  # type: ignore[type-arg]
    from referee.cron.workers import resolve_due

    settings = settings_for(url, Path(tmp))
    with Store(url) as store:
        store.check_schema()
        start.wait()
        t0, c0 = time.perf_counter(), time.process_time()
        done = resolve_due(store, settings, now=now, worker=name)
        out.put((name, len(done), time.perf_counter() - t0, time.process_time() - c0))


def run_workers(url: str, tmp: Path, now: datetime, n: int) -> tuple[float, list[tuple[str, int, float, float]]]:
    ctx = multiprocessing.get_context("spawn")
    start, out = ctx.Event(), ctx.Queue()
    procs = [ctx.Process(target=_worker, args=(url, str(tmp), now, f"w{i + 1}", start, out)) for i in range(n)]
    for p in procs:
        p.start()
    time.sleep(3.0)  # let every worker import and connect before the clock starts
    t0 = time.perf_counter()
    start.set()
    results = []
    while len(results) < len(procs):
        try:
            results.append(out.get(timeout=5))
        except queue.Empty:
            if sum(p.exitcode is not None and p.exitcode != 0 for p in procs):
                raise SystemExit("a worker failed (see above)") from None
    wall = time.perf_counter() - t0
    for p in procs:
        p.join()
    return wall, sorted(results)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--course", default="sprint")
    ap.add_argument("--idle-runs", type=int, default=5)
    ap.add_argument("--due-ticks", type=int, default=1, help="ticks that resolve every game's turn")
    ap.add_argument("--workers", default="", help="e.g. 1,2: also resolve due turns with that many workers")
    ap.add_argument("--queue-runs", type=int, default=0,
                    help="then this many times: every game's next turn due, resolved, drawn and queued (not sent)")
    ap.add_argument("--profile", action="store_true", help="profile a few due turns in this process")
    ap.add_argument("--postgresql", action="store_true", help="a private PostgreSQL server instead of SQLite")
    ap.add_argument("--sizes", default="",
                    help="e.g. 1000,10000,100000: only the idle tick, at each number of live games (one database, "
                         "grown; --games of them started, the rest copies)")
    ap.add_argument("--against", help="with --sizes: another checkout, measured the same way in a child process")
    ap.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()

    if args.sizes and args.against:
        sizes(args)
        return
    with tempfile.TemporaryDirectory(prefix="bench-scale-") as tmpdir:
        tmp = Path(tmpdir)
        if args.postgresql:
            from tests.store.pgcluster import PostgresCluster

            with PostgresCluster.start() as pg:
                (run_sizes if args.sizes else run)(args, pg.create_database("bench_scale"), tmp)
        else:
            (run_sizes if args.sizes else run)(args, f"sqlite:///{tmp / 'bench.sqlite3'}", tmp)


def idle_ticks(settings: Settings, store: Store, now: datetime, runs: int) -> tuple[datetime, float, float]:
    """``runs`` idle ticks five minutes apart after one to settle: (the clock after them, median wall, median
    CPU seconds of this process)."""
    tick(settings, now=now, store=store)
    idle = []
    for _ in range(runs):
        now += timedelta(minutes=5)
        c0 = time.process_time()
        summary = tick(settings, now=now, store=store)
        idle.append((summary.seconds, time.process_time() - c0))
        assert not summary.resolved and summary.ok, summary.line()
    return now, statistics.median(w for w, _ in idle), statistics.median(c for _, c in idle)


def run_sizes(args: argparse.Namespace, url: str, tmp: Path) -> None:
    """The idle tick at each of ``--sizes`` live games (JSON lines with ``--json``, for ``--against``)."""
    import json

    store = Store(url)
    store.upgrade()
    settings = settings_for(url, tmp)
    wanted = sorted(int(n) for n in args.sizes.split(","))
    codes = make_games(store, min(args.games, wanted[0]), args.players, args.course)
    templates = list(codes)
    now = T0 + timedelta(minutes=5)
    rows = []
    for n in wanted:
        t0 = time.perf_counter()
        codes = clone_games(store, templates, codes, n) if n > len(codes) else codes
        made = time.perf_counter() - t0
        now, wall, cpu = idle_ticks(settings, store, now, args.idle_runs)
        rows.append({"games": n, "wall": wall, "cpu": cpu})
        if args.json:
            print(json.dumps(rows[-1]), flush=True)
        else:
            print(f"{store.dialect}: {n} live games ({made:.0f} s to make): idle tick median {wall * 1e3:.0f} ms wall, "
                  f"{cpu * 1e3:.0f} ms CPU", flush=True)
    if not args.json and len(rows) > 1:
        print(f"idle tick CPU, {rows[-1]['games']} games against {rows[0]['games']}: "
              f"{rows[-1]['cpu'] / rows[0]['cpu']:.2f}x (wall {rows[-1]['wall'] / rows[0]['wall']:.2f}x)")
    store.close()


def sizes(args: argparse.Namespace) -> None:
    """``--sizes`` with ``--against TREE``: this tree, then TREE (``PYTHONPATH``), each in a child process."""
    import json
    import subprocess
    import sys

    argv = [sys.executable, __file__, "--sizes", args.sizes, "--games", str(args.games), "--players",
            str(args.players), "--course", args.course, "--idle-runs", str(args.idle_runs), "--json"]
    argv += ["--postgresql"] if args.postgresql else []
    results = {}
    for name, tree in (("this tree", None), (args.against, args.against)):
        env = {**os.environ, **({"PYTHONPATH": tree} if tree else {})}
        child = subprocess.run(argv, env=env, capture_output=True, text=True, check=False)
        if child.returncode:
            raise SystemExit(f"{name}: failed\n{child.stderr[-3000:]}")
        lines = [json.loads(line) for line in child.stdout.splitlines() if line.strip()]
        results[name] = {r["games"]: r for r in lines}
    print(f"idle tick ({'postgresql' if args.postgresql else 'sqlite'}), median of {args.idle_runs}, "
          "CPU (wall) in ms:")
    print(f"{'games':>8} {'this tree':>20} {args.against:>28}")
    for n in sorted(results["this tree"]):
        mine, theirs = results["this tree"][n], results[args.against][n]
        print(f"{n:>8} {mine['cpu'] * 1e3:>9.0f} ({mine['wall'] * 1e3:>6.0f}) "
              f"{theirs['cpu'] * 1e3:>17.0f} ({theirs['wall'] * 1e3:>6.0f})")
    for name, rows in results.items():
        first, last = rows[min(rows)], rows[max(rows)]
        print(f"{name}: {max(rows)} games against {min(rows)}: CPU {last['cpu'] / first['cpu']:.2f}x, "
              f"wall {last['wall'] / first['wall']:.2f}x")


def run(args: argparse.Namespace, url: str, tmp: Path) -> None:
    store = Store(url)
    store.upgrade()
    settings = settings_for(url, tmp)
    t0 = time.perf_counter()
    codes = make_games(store, args.games, args.players, args.course)
    print(f"{store.dialect}: {len(codes)} games of {args.players} players on {args.course} made in "
          f"{time.perf_counter() - t0:.1f} s")
    now = T0 + timedelta(minutes=5)
    tick(settings, now=now, store=store)  # the first tick after start: nothing due
    idle = []
    for _ in range(args.idle_runs):
        now += timedelta(minutes=5)
        c0 = time.process_time()
        summary = tick(settings, now=now, store=store)
        idle.append((summary.seconds, time.process_time() - c0))
        assert not summary.resolved and summary.ok, summary.line()
    print(f"idle tick: median {statistics.median(w for w, _ in idle) * 1e3:.0f} ms wall, "
          f"{statistics.median(c for _, c in idle) * 1e3:.0f} ms CPU (worst {max(w for w, _ in idle) * 1e3:.0f} ms); "
          f"summary: {summary.line()}")

    try:
        from referee.cron.workers import due_turns, open_turns, reminder_candidates
    except ImportError:  # an older referee (to compare): no scans to time
        scans = ()
    else:
        scans = (("open turns", lambda s: open_turns(s, now)), ("due turns", lambda s: due_turns(s, now)),
                 ("reminders", lambda s: reminder_candidates(s, now)))
    for name, scan in scans:
        w0, c0 = time.perf_counter(), time.process_time()
        with store.read() as s:
            scan(s)
        print(f"  scan {name}: {(time.perf_counter() - w0) * 1e3:.0f} ms wall, "
              f"{(time.process_time() - c0) * 1e3:.0f} ms CPU")

    for _ in range(args.due_ticks):
        now += timedelta(minutes=5)
        send_all_programs(store, codes, now - timedelta(minutes=1))
        c0 = time.process_time()
        summary = tick(settings, now=now, store=store)
        cpu = time.process_time() - c0
        n = summary.resolved if isinstance(summary.resolved, int) else len(summary.resolved)
        print(f"due tick: {n} turns resolved, drawn and queued in {summary.seconds:.1f} s wall, {cpu:.1f} s CPU "
              f"({cpu / max(n, 1) * 1e3:.0f} ms CPU a turn, this process; the database server's not counted)")
        print(f"  summary ({len(summary.line())} characters): {summary.line()}")
        assert n == len(codes) and summary.ok, summary.line()

    for workers in [int(w) for w in args.workers.split(",") if w]:
        now += timedelta(minutes=5)
        send_all_programs(store, codes, now - timedelta(minutes=1))
        wall, results = run_workers(url, tmp, now, workers)
        total = sum(r[1] for r in results)
        print(f"{workers} worker(s): {total} turns in {wall:.1f} s wall ({total / wall:.1f} turns/s); "
              + ", ".join(f"{name} {k} turns, {cpu:.1f} s CPU" for name, k, _, cpu in results))
        assert total == len(codes), results

    if args.queue_runs:
        from referee.cron.workers import resolve_due

        per_turn = []
        for _ in range(args.queue_runs):
            now += timedelta(minutes=5)
            send_all_programs(store, codes, now - timedelta(minutes=1))
            c0 = time.process_time()
            done = resolve_due(store, settings, now=now, worker="bench")
            per_turn.append((time.process_time() - c0) / max(len(done), 1))
        print(f"due turns resolved, drawn and queued (resolve_due, no sending): {len(done)} turns a run, CPU a turn "
              + ", ".join(f"{c * 1e3:.0f}" for c in per_turn) + f" ms (median {statistics.median(per_turn) * 1e3:.0f})")

    if args.profile:
        now += timedelta(minutes=5)
        send_all_programs(store, codes, now - timedelta(minutes=1))
        from referee.cron.workers import resolve_due

        prof = cProfile.Profile()
        prof.enable()
        done = resolve_due(store, settings, now=now, worker="profile", limit=20)
        prof.disable()
        print(f"profile of {len(done)} due turns:")
        pstats.Stats(prof).sort_stats("cumulative").print_stats(35)
        if os.environ.get("BENCH_PSTATS"):
            prof.dump_stats(os.environ["BENCH_PSTATS"])
    store.close()


if __name__ == "__main__":
    main()
