"""A whole turn's mail for 8 players, through the store: resolve, render, queue, and send to a Maildir.

    .venv/bin/python benchmarks/bench_turn_mail.py [--course grand-prix] [--players 8] [--turns 10]
                                                   [--database-url URL] [--pictures all|stages|none]

Sets up a game in a fresh SQLite file (or the PostgreSQL database given: it must be empty or at the
newest schema; the game gets a new code each run), plays a couple of turns, then for each timed turn:

- resolve + queue: ``resolve_turn`` and ``enqueue_turn_mails`` in one write transaction, committed (what
  ``referee game resolve`` and the tick do): the engine, the pictures and GIF, 8 player mails and the GM's
  copy, stored in the outbox;
- queue alone: ``enqueue_turn_mails`` for a turn already resolved (in a transaction rolled back);
- send: one ``send_outbox`` pass writing the turn's 9 mails into a Maildir (claim, write + fsync, mark).

Prints medians and the worst run (goal for the whole turn's mail: under 1 s), and the sizes of the
players' mails (goal, issue 42: at most 250 KB each at the default ``--pictures all``, factory with 8
robots included). ``--pictures`` sets every seat's ``SET PICTURES`` (on trees that have it). One core, one
process.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

from referee import games as g
from referee.common.config import Settings
from referee.mailer import MaildirTransport, send_outbox
from referee.reports import enqueue_start_mails, enqueue_turn_mails
from referee.store import Store

NAMES = ("Twonky", "Hammer", "Zoom", "Spin", "Squash", "Trundle", "Hulk", "Bishop")
T0 = datetime(2026, 3, 1, 12, tzinfo=UTC)


def ms(times: list[float]) -> str:
    return f"median {statistics.median(times) * 1e3:7.1f} ms, worst {max(times) * 1e3:7.1f} ms"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--course", default="grand-prix")
    ap.add_argument("--players", type=int, default=8)
    ap.add_argument("--turns", type=int, default=10, help="timed turns")
    ap.add_argument("--warmup-turns", type=int, default=2)
    ap.add_argument("--database-url", default=None, help="default: a new SQLite file in a temporary directory")
    ap.add_argument("--pictures", choices=("all", "stages", "none"), default=None,
                    help="every seat's SET PICTURES (default: as a new seat has it)")
    args = ap.parse_args()

    with tempfile.TemporaryDirectory(prefix="bench-turn-mail-") as tmp:
        url = args.database_url or f"sqlite:///{Path(tmp) / 'bench.sqlite3'}"
        settings = Settings(database_url=url, referee_address="referee@example.test", gm_address="gm@example.test",
                            transport="maildir", maildir_out=str(Path(tmp) / "out"))
        store = Store(url)
        if store.dialect == "sqlite":
            store.check_schema()
        else:
            store.upgrade()
        code = f"B{uuid.uuid4().hex[:6].upper()}"
        with store.write() as s:
            game = g.create_game(s, course=args.course, code=code, seed="bench", now=T0)
            for name in NAMES[: args.players]:
                seat = g.add_player(s, game, email=f"{name.lower()}@example.test", robot=name, now=T0)
                if args.pictures:
                    seat.pictures = args.pictures
            g.start_game(s, game, now=T0)
            enqueue_start_mails(s, settings, game, now=T0)
        transport = MaildirTransport.from_settings(settings)
        asyncio.run(send_outbox(store, settings, now=T0, transport=transport))

        now = T0
        resolve_times, queue_times, send_times, sizes = [], [], [], []
        for i in range(args.warmup_turns + args.turns):
            now += timedelta(hours=1)
            t0 = time.perf_counter()
            with store.write() as s:
                turn = g.resolve_turn(s, code, fill=g.random_fill, now=now)
                if turn.game.status == "finished":
                    raise SystemExit(f"the game ended at turn {turn.number}; time fewer turns")
                rows = enqueue_turn_mails(s, settings, turn.game, turn, now=now)
                sizes += [len(m.raw) for m in rows if m.kind == "turn_report"]
                number = turn.number
            t1 = time.perf_counter()
            with store.write() as s:
                t2 = time.perf_counter()
                enqueue_turn_mails(s, settings, code, number, now=now, correction=True)
                t3 = time.perf_counter()
                s.rollback()
            report = asyncio.run(send_outbox(store, settings, now=now, transport=transport))
            t4 = time.perf_counter()
            assert report.sent == len(rows), report.summary()
            if i >= args.warmup_turns:
                resolve_times.append(t1 - t0)
                queue_times.append(t3 - t2)
                send_times.append(t4 - t3)
        store.close()

    print(f"course {args.course}, {args.players} players + GM, {args.turns} turns timed, {store.dialect}")
    print(f"resolve + queue the turn's mails (commit): {ms(resolve_times)}")
    print(f"queue the turn's mails alone:              {ms(queue_times)}")
    print(f"send them (one pass into a Maildir):       {ms(send_times)}")
    print(f"players' mail size: median {statistics.median(sizes) / 1024:.0f} KB, largest {max(sizes) / 1024:.0f} KB "
          f"({len(sizes)} mails)")


if __name__ == "__main__":
    main()
