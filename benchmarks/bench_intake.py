"""Mails taken in per second from Dovecot by ``poll`` (into the store), against a bare aioimaplib fetch.

    .venv/bin/python benchmarks/bench_intake.py [--mails 1000] [--size 2000] [--runs 5]
                                                [--tls] [--postgresql | --database-url URL]

Starts a private Dovecot (as the tests do: root and Debian's dovecot-imapd needed), fills a mailbox
with ``--mails`` player mails of about ``--size`` bytes, then for each run:

- bare fetch: log in, SELECT, UID SEARCH ALL, UID FETCH (UID BODY.PEEK[]) 25 UIDs a command (the
  fastest size with aioimaplib as it comes), the bytes of every mail in hand; nothing stored, nothing
  moved;
- the poller's fetch: the same with the poller's own connection and fetch (:mod:`referee.intake.imap`:
  its read size, command size and FETCH answer test), nothing stored or moved: how much of the
  poll's speed comes from fetching faster than the bare client;
- bare fetch + move: the bare fetch, and each ``BATCH`` mails moved to the processed folder (what the
  mail server costs a poll, without the store);
- poll: :func:`referee.intake.imap.poll_async` over the same mails: the same commands plus the
  processed folder, the store (every mail recorded with its identity, committed per batch), UID MOVE
  and marking them moved. The mails are then moved back for the next run, and the database replaced.

Prints the median rate of each, the ratio of poll to bare fetch (goal: at least half), and of poll to
the poller's own fetch (what storing and moving cost). The database is a new SQLite file per run, or
a PostgreSQL database (a private server started here with ``--postgresql``, like the tests' one:
fsync off; or the one given, emptied of incoming mail).
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import ssl
import statistics
import sys
import tempfile
import time
from email import policy
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

import aioimaplib

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from referee.common.config import Settings  # noqa: E402
from referee.intake.imap import BATCH, FETCH_CHUNK, connect, fetch, poll_async, search_uids, select  # noqa: E402

#: UIDs a command for the bare fetch: the fastest size with aioimaplib as it comes (10, 25 and 50 measured)
BARE_CHUNK = 25
from referee.store import Store  # noqa: E402
from tests.servers.dovecot import Dovecot, password, start_dovecot  # noqa: E402

USER = "referee"
BOX, DONE = "Bench", "BenchDone"


def player_mail(i: int, size: int) -> bytes:
    msg = EmailMessage()
    msg["From"] = f"Player {i % 8} <player{i % 8 + 1}@example.test>"
    msg["To"] = "referee@example.test"
    msg["Subject"] = f"Re: RR-7 turn 4 results, your cards for turn 5 ({i})"
    msg["Message-ID"] = make_msgid(domain="client.example.test")
    body = "BEGIN RR-7 Twonky turn 5 key 8f3k2q\n1: FWD2 670\n2: LF90 90\n3: 4\n4: FWD1\n5: UTRN 10\nEND\n\n"
    quote = "> The board after register 3: Twonky on r4c7 facing N, Hammer pushed into the pit.\n"
    msg.set_content(body + quote * max(0, (size - 600) // len(quote)))
    return msg.as_bytes(policy=policy.SMTP)


#: the client's TLS context with ``--tls`` (IMAPS to a Dovecot with a self-signed certificate), else None
TLS: list[ssl.SSLContext] = []


async def client(server: Dovecot) -> aioimaplib.IMAP4:
    if TLS:
        c: aioimaplib.IMAP4 = aioimaplib.IMAP4_SSL("127.0.0.1", server.imaps_port, timeout=60,  # type: ignore[attr-defined]
                                                    ssl_context=TLS[0])
    else:
        c = aioimaplib.IMAP4("127.0.0.1", server.imap_port, timeout=60)
    await c.wait_hello_from_server()
    assert (await c.login(server.address(USER), password(USER))).result == "OK"
    return c


async def fill(server: Dovecot, mails: list[bytes]) -> None:
    c = await client(server)
    for name in (BOX, DONE):
        await c.create(name)
    for raw in mails:
        assert (await c.append(raw, mailbox=BOX)).result == "OK"
    await c.logout()


async def bare_fetch(server: Dovecot, expected: int, move: bool = False) -> float:
    """Fetch every mail as bytes (and, with ``move``, move each batch of 100 to the processed folder)."""
    began = time.perf_counter()
    c = await client(server)
    assert (await asyncio.wait_for(c.select(BOX), 60)).result == "OK"
    reply = await asyncio.wait_for(c.uid_search("ALL", charset=None), 60)
    uids = [int(u) for u in reply.lines[0].split() if u.isdigit()]
    got = 0
    for start in range(0, len(uids), BARE_CHUNK):
        chunk = uids[start:start + BARE_CHUNK]
        reply = await asyncio.wait_for(c.uid("fetch", f"{chunk[0]}:{chunk[-1]}", "(UID BODY.PEEK[])"), 60)
        got += sum(1 for line in reply.lines if isinstance(line, bytearray))
        if move and (len(chunk) < BARE_CHUNK or (start + BARE_CHUNK) % BATCH == 0):
            first = uids[max(0, start + BARE_CHUNK - BATCH)]
            assert (await asyncio.wait_for(c.uid("move", f"{first}:{chunk[-1]}", DONE), 60)).result == "OK"
    elapsed = time.perf_counter() - began
    await c.logout()
    assert got == expected, (got, expected)
    return elapsed


async def poller_fetch(settings: Settings, expected: int) -> float:
    """The poller's own fetch (its client settings, command sizes and batches), nothing stored or moved."""
    began = time.perf_counter()
    conn = await connect(settings, ssl_context=TLS[0] if TLS else None)
    await select(conn, BOX)
    uids = await search_uids(conn, "ALL")
    got = 0
    for start in range(0, len(uids), BATCH):
        got += len(await fetch(conn, uids[start:start + BATCH]))
    elapsed = time.perf_counter() - began
    await conn.close()
    assert got == expected, (got, expected)
    return elapsed


async def move_back(server: Dovecot) -> None:
    """Put the mails back for the next run (in batches: aioimaplib recurses once per line of an answer)."""
    c = await client(server)
    assert (await c.select(DONE)).result == "OK"
    reply = await c.uid_search("ALL", charset=None)
    uids = [u.decode() for u in reply.lines[0].split() if u.isdigit()]
    for start in range(0, len(uids), BATCH):
        chunk = uids[start:start + BATCH]
        assert (await c.uid("move", f"{chunk[0]}:{chunk[-1]}", BOX)).result == "OK"
    await c.logout()


def fresh_store(url: str | None, directory: Path, run: int) -> Store:
    if url is None:
        store = Store(f"sqlite:///{directory / f'bench-{run}.sqlite3'}")
        store.upgrade()
        return store
    store = Store(url)
    store.check_schema()
    from sqlalchemy import delete

    from referee.store.mail_models import IncomingMail

    with store.write() as s:
        s.execute(delete(IncomingMail))
    return store


async def timed_poll(settings: Settings, store: Store, expected: int) -> float:
    began = time.perf_counter()
    report = await poll_async(settings, store, ssl_context=TLS[0] if TLS else None)
    elapsed = time.perf_counter() - began
    assert (report.stored, report.moved) == (expected, expected), report.summary()
    return elapsed


async def run(args: argparse.Namespace) -> None:
    root = Path(tempfile.mkdtemp(prefix="referee-bench-dovecot-"))
    work = Path(tempfile.mkdtemp(prefix="referee-bench-"))
    if args.tls:
        from tests.intake.tls_dovecot import start_tls_dovecot

        server: Dovecot = start_tls_dovecot(root)
        TLS.append(server.client_context())  # type: ignore[attr-defined]
    else:
        server = start_dovecot(root)
    try:
        mails = [player_mail(i, args.size) for i in range(args.mails)]
        await fill(server, mails)
        settings = Settings(referee_address="referee@example.test", transport="imap", imap_host="127.0.0.1",
                            imap_port=server.imaps_port if TLS else server.imap_port,  # type: ignore[attr-defined]
                            imap_tls="ssl" if TLS else "none", imap_user=server.address(USER),
                            imap_password=password(USER), imap_mailbox=BOX, imap_processed=DONE, mail_timeout=60)
        bare, own, moving, polled = [], [], [], []
        for n in range(args.runs):
            bare.append(await bare_fetch(server, args.mails))
            own.append(await poller_fetch(settings, args.mails))
            moving.append(await bare_fetch(server, args.mails, move=True))
            await move_back(server)
            store = fresh_store(args.database_url, work, n)
            try:
                polled.append(await timed_poll(settings, store, args.mails))
            finally:
                store.close()
            await move_back(server)
        size = sum(map(len, mails)) / len(mails)
        rate = {name: args.mails / statistics.median(times) for name, times in
                (("bare", bare), ("own", own), ("moving", moving), ("poll", polled))}
        ms = {name: statistics.median(times) * 1e3 for name, times in
              (("bare", bare), ("own", own), ("moving", moving), ("poll", polled))}
        where = ("PostgreSQL" if args.database_url else "SQLite") + (", IMAPS" if TLS else "")
        print(f"{args.mails} mails of {size:.0f} bytes, {args.runs} runs (medians), {where}; the poller: "
              f"{FETCH_CHUNK} a fetch, {BATCH} a transaction")
        print(f"  bare aioimaplib fetch:  {rate['bare']:8.0f} mails/s  ({ms['bare']:.0f} ms; {BARE_CHUNK} a fetch)")
        print(f"  the poller's fetch:     {rate['own']:8.0f} mails/s  ({ms['own']:.0f} ms; nothing stored or moved)")
        print(f"  bare fetch + UID MOVE:  {rate['moving']:8.0f} mails/s  ({ms['moving']:.0f} ms; the server's share "
              f"of a poll)")
        print(f"  poll into the store:    {rate['poll']:8.0f} mails/s  ({ms['poll']:.0f} ms)")
        print(f"  ratio poll / bare fetch:     {rate['poll'] / rate['bare']:5.2f}  (goal: at least 0.5)")
        print(f"  ratio poll / poller's fetch: {rate['poll'] / rate['own']:5.2f}  (what storing and moving cost)")
    finally:
        server.stop()
        shutil.rmtree(root, ignore_errors=True)
        shutil.rmtree(work, ignore_errors=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mails", type=int, default=1000)
    ap.add_argument("--size", type=int, default=2000, help="approximate bytes per mail")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--database-url", default=None, help="PostgreSQL URL (default: a new SQLite file per run)")
    ap.add_argument("--tls", action="store_true", help="IMAP over TLS (IMAPS), for the bare fetch and the poll alike")
    ap.add_argument("--postgresql", action="store_true",
                    help="start a private PostgreSQL server as the tests do, and use it")
    args = ap.parse_args()
    if not args.postgresql:
        asyncio.run(run(args))
        return
    from tests.store.pgcluster import PostgresCluster

    with PostgresCluster.start() as pg:
        args.database_url = pg.create_database("bench_intake")
        with Store(args.database_url) as store:
            store.upgrade()
        asyncio.run(run(args))


if __name__ == "__main__":
    main()
