"""A fuzz run of the mail intake: hostile and broken mails stored and processed, in one process.

    .venv/bin/python benchmarks/fuzz_intake.py [--mails 100000] [--seed 22] [--time-limit 3600]
        [--hang 2.0] [--batch 50] [--shares direct=0.6,maildir=0.25,imap=0.149,ingest=0.001]
        [--database-url URL] [--no-imap] [--no-community]

Builds mails from a seeded random generator, each from a good mail (orders with the right key, a
wrong key, HELP, STATUS, a GM block, a reply, HTML; and the community's commands, :func:`community_mails`:
LIST, JOIN, OBSERVE, WHOIS, RESIGN, ABSENT, SET ADDRESS, PRESS, GAMES, "unsubscribe", values beyond their
ranges, unless ``--no-community``) sent as is or changed by one or more of: byte flips,
truncation, header shuffles and duplicates, random MIME trees (nesting, odd charsets and transfer
encodings, broken boundaries), and the recursion bombs of ``tests/intake/bombs.py`` (nested
comments, angle brackets, encoded words and multiparts; header floods).

The mails go in rounds of ``--batch``; each mail of a round takes one of four paths into the store:

- ``direct``: :func:`referee.intake.maildir.ingest_bytes` in this process (what ``referee ingest`` does);
- ``maildir``: written as files into an inbox Maildir, taken in by one ``poll_maildir`` pass a round;
- ``imap``: appended to a private Dovecot's INBOX (IMAP ``APPEND``), taken in by one ``poll`` a round
  (needs root and Dovecot, as the tests; ``--no-imap`` sends these mails the direct way);
- ``ingest``: piped into a real ``referee ingest`` subprocess (exit 0 expected; 75 or a timeout is a crash).

Then every waiting mail is processed one at a time (``process_pending(limit=1)``, the referee's own
GM handler), timed, and each mail of the round is looked up in the database (its IMAP UID, its
Message-ID or its bytes) for a stored disposition.

Counted: crashes (storing raised or refused a mail, a subprocess failed, processing raised or recorded
``error``), hangs (a mail taking more than ``--hang`` seconds of CPU to store and process; for the
batched paths a round's poll is shared among its mails, and a poll over ``--hang`` s of CPU counts as a
hang; an alarm cuts a mail off at ten times that in wall time) and mails without a disposition (no
row, or a row still ``new``). Wall time over ``--hang`` without the CPU (a busy machine) is reported
apart. Exit status 1 if any. Stops early, saying so, after ``--time-limit`` seconds.

The database is a new SQLite file on /dev/shm (a memory file system: a commit costs no disk flush)
unless ``--database-url``; the Maildir is there too.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import logging
import os
import random
import re
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from email.message import EmailMessage
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import aioimaplib  # noqa: E402
from sqlalchemy import func, select  # noqa: E402

from referee.common.config import Settings  # noqa: E402
from referee.intake.imap import mailbox_key as imap_mailbox_key  # noqa: E402
from referee.intake.imap import parse_fetch, poll  # noqa: E402
from referee.intake.maildir import ingest_bytes, poll_maildir  # noqa: E402
from referee.intake.process import process_pending, referee_gm_handler  # noqa: E402
from referee.store import Store  # noqa: E402
from referee.store.mail import stored_fields  # noqa: E402
from referee.store.mail_models import IncomingMail  # noqa: E402
from tests.intake.bombs import BOMBS  # noqa: E402
from tests.intake.helpers import (  # noqa: E402  # noqa: E402
    GM,
    GM_SECRET,
    REFEREE,
    address,
    block,
    hand,
    new_game,
    player,
    program_lines,
    settings_for,
)
from tests.intake.stored import hostile_settings  # noqa: E402
from tests.servers.dovecot import Dovecot, password, start_dovecot  # noqa: E402

CHARSETS = ["utf-8", "iso-8859-1", "utf-16", "utf-7", "shift_jis", "koi8-r", "x-unknown", "unicode_escape", ""]
ENCODINGS = ["7bit", "8bit", "base64", "quoted-printable", "x-uuencode", "garbage"]
SENDERS = [address("alice"), address("bob"), "Alice <ALICE@example.test>", '"alice"@example.test',
           f"{GM} <evil@attacker.example>", "stranger@elsewhere.test", "MAILER-DAEMON@example.test", "<>",
           "=?utf-8?q?=E2=80=AE?= <carol@example.test>", "(" * 50 + ")" * 50 + " bob@example.test", ""]
PATHS = ("direct", "maildir", "imap", "ingest")

_MESSAGE_ID = re.compile(rb"^Message-ID: <[^>\r\n]*>", re.MULTILINE | re.IGNORECASE)
_APPENDUID = re.compile(rb"\[APPENDUID (\d+) (\d+)\]", re.IGNORECASE)


def _msgid(rng: random.Random) -> str:
    return f"<{rng.getrandbits(64):016x}.{rng.getrandbits(32):08x}@fuzz.example.test>"


class Hang(Exception):
    pass


def _alarm(_signum: int, _frame: object) -> None:
    raise Hang


STOP: list[int] = []


def _stop(signum: int, _frame: object) -> None:
    """SIGTERM or SIGINT: finish the round, then report."""
    STOP.append(signum)


def good_mails(store: Store, code: str, rng: random.Random) -> list[bytes]:
    """The seeds: the mails a game sees."""
    cards = hand(store, code, "Twonky")
    bodies = [
        block(store, code, "Twonky", program_lines(cards[:5])),
        block(store, code, "Twonky", program_lines(cards[4:9])),
        block(store, code, "Twonky", program_lines(cards[:5]), key="wrong-key"),
        "HELP\n", "STATUS\n", "CARDS\n", "1: " + cards[0] + "\nREBOOT\n",
        f"BEGIN GM key {GM_SECRET}\nSTATUS\nEND\n", "BEGIN GM key guess\nPAUSE\nEND\n",
        "> BEGIN quoted\n> 1: U1\n> END\nThanks!\n",
    ]
    out = []
    for body in bodies:
        for sender in [*SENDERS[:4], GM]:
            out.append(_seed(sender, f"{code} orders", body, rng))
    return out


def _seed(sender: str, subject: str, body: str, rng: random.Random) -> bytes:
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = "referee@example.test"
    msg["Subject"] = subject
    msg["Message-ID"] = _msgid(rng)
    msg.set_content(body)
    if rng.random() < 0.3:
        msg.add_alternative(f"<p>{body}</p>", subtype="html")
    return bytes(msg)


#: who writes the community seeds: players, observers, strangers, forged and broken senders
COMMUNITY_SENDERS = [address("alice"), address("carol"), address("heidi"), address("ivan"), "dave@elsewhere.test",
                     f"{address('alice')} <forged@attacker.example>", "Zoë <zoe@example.test>", "\x1b[2J@example.test"]


def community_mails(store: Store, settings: Settings, code: str, rng: random.Random) -> list[bytes]:
    """The community's seeds (issue 41): every command anyone may send (LIST, JOIN, OBSERVE, WHOIS...), a
    player's own (RESIGN, ABSENT, SET ADDRESS, GAMES, PRESS) with values at and beyond their ranges, an
    observer's "unsubscribe" and "stop" in words, a stranger's "I want to join", greetings and sign-offs."""
    from referee import games as g
    from referee.games import signup
    from referee.games.observers import start_observing
    from referee.store.types import utcnow

    with store.write() as s:
        forming = g.create_game(s, course="sprint", code="FZ-OPEN", seed="fuzz", actor="fuzz", now=utcnow(),
                                gm_address=GM)
        g.create_game(s, course="sprint", code="FZ-HIDDEN", seed="fuzz", actor="fuzz", now=utcnow(), gm_address=GM)
        signup.open_signup(s, forming, seats=4, until=None, actor="fuzz", now=utcnow())
        for user in ("heidi", "ivan"):
            start_observing(s, settings, g.get_game(s, code), address(user), now=utcnow())

    def keyed(robot: str, *lines: str, key: str | None = None) -> str:
        secret = key or player(store, code, robot).secret
        return f"BEGIN {code} {robot} key {secret}\n" + "\n".join(lines) + "\nEND\n"

    open_to_all = ["LIST", "LIST\nLIST\nLIST", f"JOIN {code}", "JOIN FZ-OPEN AS Spinner", "JOIN FZ-OPEN",
                   "JOIN FZ-HIDDEN", "JOIN NO-SUCH-GAME AS X", "JOIN " + "A" * 40, "JOIN FZ-OPEN AS " + "x" * 30,
                   f"OBSERVE {code}", "OBSERVE FZ-HIDDEN", f"UNOBSERVE {code}", "UNOBSERVE NOPE-1", "WHOIS Twonky",
                   f"WHOIS {address('alice')}", "WHOIS a\x01b@example.test", "WHOIS " + "b" * 300 + "@x.org",
                   "CONFIRM c.1.aaaaaaaaaaaaaaaa", "CONFIRM c.99999999999.abcdefghijklmnop", "CONFIRM x",
                   "HELP", "help me", "I want to join", "Ich möchte mitspielen", "Quiero unirme", "Ik wil meedoen",
                   "unsubscribe", "Stop sending me these", "bitte abmelden", "désabonner", "darme de baja",
                   "afmelden", "remove me", "Hi,\n\nLIST\n\nThanks,\nAlice", "Hallo,\nLIST\nViele Grüße\nAnna",
                   "LIST\n-- \nAlice Example\n+44 20 7946 0958", "LSIT", "Joim FZ-OPEN", "LIST\nFLY AWAY",
                   "\u202eLIST", "LIST\x1b[2J", ("LIST\n" * 30)]
    own = ["GAMES", "RESIGN " + code, "SET WHOIS ON", "SET WHOIS maybe", "ABSENT NONE",
           "ABSENT 9999-12-30 TO 9999-12-31", "ABSENT 0001-01-01 TO 0001-01-02", "ABSENT 2026-12-01 TO 2027-06-01",
           "ABSENT 2026-12-01 TO 2026-12-08", "ABSENT 2026-02-30 TO 2026-03-01", "ABSENT 99999-01-01 TO 1-1-1",
           "ABSENT 2026-12-08 TO 2026-12-01", "ABSENT 20261201 TO 20261208",
           "SET ADDRESS new@example.org", "SET ADDRESS a\x01b@example.org", "SET ADDRESS x@[127.0.0.1]",
           "SET ADDRESS \"q\"@example.org", "SET ADDRESS " + "l" * 70 + "@example.org",
           "SET ADDRESS referee@example.test",
           "SET ADDRESS a@b.c", "PRESS TO ALL\nGood luck\x1b]0;owned\x07 \u202eevil\u202c", "PRESS TO Hammer\nA pact?",
           "PRESS TO Nobody\nhi", "PRESS TO ALL", "PRESS TO ALL\n" + "x" * 4100, "PRESS TO ALL:\nhello",
           "\n".join(["GAMES"] * 12)]
    bodies = open_to_all + [keyed(robot, line) for line in own for robot in ("Twonky", "Zoom")]
    bodies += [keyed("Twonky", "GAMES", key="wrong-key"), "Hi,\n\n" + keyed("Twonky", "GAMES") + "\nCheers"]
    subjects = ["commands", f"Re: {code} turn 1 results", "Unsubscribe", f"UNOBSERVE {code} [unobserve o.1.aaaa"
                "aaaaaaaaaaaa]", "[confirm c.1.abcdefghijklmnop]", ""]
    out = []
    for body in bodies:
        for _ in range(2):
            out.append(_seed(rng.choice(COMMUNITY_SENDERS), rng.choice(subjects), body, rng))
    return out


def flip(raw: bytes, rng: random.Random) -> bytes:
    data = bytearray(raw)
    for _ in range(rng.randint(1, 20)):
        if data:
            data[rng.randrange(len(data))] = rng.randrange(256)
    return bytes(data)


def truncate(raw: bytes, rng: random.Random) -> bytes:
    return raw[: rng.randrange(len(raw) + 1)]


def shuffle_headers(raw: bytes, rng: random.Random) -> bytes:
    head, sep, body = raw.partition(b"\r\n\r\n")
    lines = head.split(b"\r\n")
    rng.shuffle(lines)
    for _ in range(rng.randint(0, 3)):   # duplicates and strays
        strays = [b"From: x@y.test", b": empty name", b"Content-Type: multipart/mixed", b" folded"]
        lines.insert(rng.randrange(len(lines) + 1), rng.choice([*lines, *strays]))
    return b"\r\n".join(lines) + sep + body


def random_mime(rng: random.Random, depth: int = 0) -> bytes:
    """A random MIME part (headers and body), nested up to a few levels, often broken."""
    if depth < 4 and rng.random() < 0.4:
        boundary = f"b{depth}{rng.randrange(1000)}"
        parts = b"".join(b"--" + boundary.encode() + b"\r\n" + random_mime(rng, depth + 1) + b"\r\n"
                         for _ in range(rng.randint(0, 4)))
        end = b"--" + boundary.encode() + b"--\r\n" if rng.random() < 0.8 else b""
        kind = rng.choice(["mixed", "alternative", "related", "report"])
        return (f"Content-Type: multipart/{kind}; boundary=\"{boundary}\"\r\n\r\n".encode() + parts + end)
    charset = rng.choice(CHARSETS)
    encoding = rng.choice(ENCODINGS)
    ctype = rng.choice(["text/plain", "text/html", "application/octet-stream", "message/rfc822", "text/x-weird"])
    body = rng.choice([b"HELP\r\n", b"1: U1\r\nEND\r\n", bytes(rng.randrange(256) for _ in range(rng.randint(0, 300))),
                       b"PGh0bWw+PC9odG1s", b"=E2=80=AE=\r\n=ZZ"])
    disposition = "Content-Disposition: attachment; filename=x.bin\r\n" if rng.random() < 0.2 else ""
    return (f"Content-Type: {ctype}; charset={charset}\r\nContent-Transfer-Encoding: {encoding}\r\n"
            f"{disposition}\r\n").encode() + body


def mime_mail(rng: random.Random) -> bytes:
    head = (f"From: {rng.choice(SENDERS)}\r\nTo: referee@example.test\r\nSubject: fuzz\r\n"
            f"Message-ID: {_msgid(rng)}\r\nMIME-Version: 1.0\r\n").encode()
    return head + random_mime(rng)


def bomb(rng: random.Random) -> tuple[str, bytes]:
    name = rng.choice(sorted(BOMBS))
    return f"bomb: {name}", BOMBS[name]()


def make_mail(seeds: list[bytes], rng: random.Random) -> tuple[str, bytes]:
    roll = rng.random()
    if roll < 0.03:
        return bomb(rng)
    if roll < 0.25:
        return "random MIME", mime_mail(rng)
    # a Message-ID of its own (a copy of a stored one would be stored once, and not read again)
    raw = _MESSAGE_ID.sub(f"Message-ID: {_msgid(rng)}".encode(), rng.choice(seeds),
                          count=1)
    shape = rng.choice(["flip", "truncate", "shuffle", "flip+shuffle", "as is"])
    if "shuffle" in shape:
        raw = shuffle_headers(raw, rng)
    if "flip" in shape:
        raw = flip(raw, rng)
    if shape == "truncate":
        raw = truncate(raw, rng)
    return shape, raw


@dataclass
class Mail:
    """One fuzzed mail, and what became of it."""

    n: int
    kind: str
    path: str
    raw: bytes = b""
    uid: int | None = None      # IMAP UID given by APPEND
    held: bytes | None = None   # the mail as the IMAP server holds it
    row: int | None = None      # store id
    outcome: str = "none"       # the stored disposition (``none``: no row)
    store_cpu: float = 0.0
    store_wall: float = 0.0
    proc_cpu: float = 0.0
    proc_wall: float = 0.0

    @property
    def cpu(self) -> float:
        return self.store_cpu + self.proc_cpu

    @property
    def wall(self) -> float:
        return self.store_wall + self.proc_wall

    def describe(self) -> str:
        return (f"mail {self.n} ({self.kind}, {self.path}, row {self.row}, {self.outcome}): "
                f"{self.cpu:.2f} s CPU, {self.wall:.2f} s wall")


@dataclass
class Tally:
    crashes: list[str] = field(default_factory=list)
    hangs: list[str] = field(default_factory=list)
    undisposed: list[str] = field(default_factory=list)
    slow: list[str] = field(default_factory=list)   # over the limit in wall time only: a busy machine
    notes: Counter[str] = field(default_factory=Counter)


class Timer:
    """Wall and CPU time of a block, cut off by an alarm after ``cutoff`` seconds of wall time."""

    def __init__(self, cutoff: float) -> None:
        self.cutoff = cutoff
        self.wall = self.cpu = 0.0

    def __enter__(self) -> Timer:
        self._t0, self._c0 = time.perf_counter(), time.process_time()
        signal.setitimer(signal.ITIMER_REAL, self.cutoff)
        return self

    def __exit__(self, *exc: object) -> None:
        signal.setitimer(signal.ITIMER_REAL, 0)
        self.wall, self.cpu = time.perf_counter() - self._t0, time.process_time() - self._c0


# -- the paths into the store ------------------------------------------------------------------------------
def store_direct(store: Store, mails: list[Mail], args: argparse.Namespace, tally: Tally) -> None:
    for m in mails:
        timer = Timer(args.hang * 10)
        try:
            with timer:
                m.row, _new = ingest_bytes(store, m.raw)
        except Hang:
            tally.hangs.append(f"mail {m.n} ({m.kind}, direct): storing cut off after {args.hang * 10:.0f} s")
        except Exception as exc:   # a crash: counted, and the run goes on
            tally.crashes.append(f"mail {m.n} ({m.kind}, direct): storing: {type(exc).__name__}: {exc}"[:300])
        m.store_wall, m.store_cpu = timer.wall, timer.cpu


def store_ingest(env: dict[str, str], mails: list[Mail], args: argparse.Namespace, tally: Tally) -> None:
    """The real ``referee ingest``, one process a mail, as an MTA's pipe transport runs it."""
    command = [str(Path(sys.executable).parent / "referee"), "ingest"]
    for m in mails:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        try:
            done = subprocess.run(command, input=m.raw, capture_output=True, env=env, timeout=args.hang * 10)
        except subprocess.TimeoutExpired:
            tally.hangs.append(f"mail {m.n} ({m.kind}, ingest): referee ingest killed after {args.hang * 10:.0f} s")
            continue
        finally:
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            m.store_wall = time.perf_counter() - t0
            m.store_cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
        found = re.match(rb"stored as mail (\d+)", done.stdout)
        if done.returncode != 0 or found is None:
            tally.crashes.append(f"mail {m.n} ({m.kind}, ingest): exit {done.returncode}: "
                                 f"{done.stderr.decode(errors='replace').strip()[-200:]}")
            continue
        m.row = int(found.group(1))


def _poll_once(run: Callable[[], Any], how: str, mails: list[Mail], taken: list[Mail], args: argparse.Namespace,
               tally: Tally) -> None:
    """One poll (``run``) of the batch ``mails`` (``taken``: those it can find), timed and cut off if it hangs;
    crashes, hangs and refusals go in the tally, then each mail's share of the time."""
    what = f"{'IMAP' if how == 'imap' else how} poll of mails {mails[0].n}-{mails[-1].n}"
    timer = Timer(args.hang * 10 * max(1, len(taken)))
    try:
        with timer:
            report = run()
        if report.refused:
            tally.crashes.append(f"{what}: {report.refused} refused")
    except Hang:
        tally.hangs.append(f"{what}: cut off")
    except Exception as exc:
        tally.crashes.append(f"{what}: {type(exc).__name__}: {exc}"[:300])
    _share(taken, timer, how, args, tally)


def store_maildir(store: Store, settings: Settings, inbox: Path, mails: list[Mail], args: argparse.Namespace,
                  tally: Tally) -> None:
    """Files in the inbox Maildir's ``new``, then one pass of ``poll_maildir``."""
    for m in mails:
        name = f"{int(time.time())}.fuzz{m.n}.fuzz.example.test"
        (inbox / "tmp" / name).write_bytes(m.raw)
        os.rename(inbox / "tmp" / name, inbox / "new" / name)
    _poll_once(lambda: poll_maildir(settings, store), "maildir", mails, mails, args, tally)


async def _append(server: Dovecot, raws: list[bytes]) -> list[tuple[int | None, bytes | None]]:
    """IMAP APPEND each mail to referee@'s INBOX: the UID the server gave it (None: refused) and the mail
    as the server gives it back (a server may change a few bytes, e.g. NUL and bare line ends)."""
    client = aioimaplib.IMAP4("127.0.0.1", server.imap_port, timeout=60)
    await client.wait_hello_from_server()
    await client.login(server.address("referee"), password("referee"))
    uids: list[int | None] = []
    held: dict[int, bytes] = {}
    try:
        for raw in raws:
            response = await asyncio.wait_for(client.append(raw, mailbox="INBOX"), 60)
            found = _APPENDUID.search(b" ".join(x for x in response.lines if isinstance(x, bytes)))
            uids.append(int(found.group(2)) if response.result == "OK" and found else None)
        taken = [u for u in uids if u is not None]
        if taken:
            await client.select("INBOX")
        for start in range(0, len(taken), 50):   # aioimaplib recurses once per line of an answer
            which = ",".join(str(u) for u in taken[start:start + 50])
            response = await asyncio.wait_for(client.uid("fetch", which, "(UID INTERNALDATE BODY.PEEK[])"), 60)
            held.update((uid, raw) for uid, raw, _date in parse_fetch(response.lines))
    finally:
        await client.logout()
    return [(u, held.get(u) if u is not None else None) for u in uids]


def store_imap(store: Store, settings: Settings, server: Dovecot, mails: list[Mail], args: argparse.Namespace,
               tally: Tally) -> list[Mail]:
    """APPEND to Dovecot, then one ``poll``. Returns the mails the server refused (sent the direct way)."""
    uids = asyncio.run(_append(server, [m.raw for m in mails]))
    refused = []
    for m, (uid, held) in zip(mails, uids, strict=True):
        m.uid, m.held = uid, held
        if uid is None:
            refused.append(m)
    taken = [m for m in mails if m.uid is not None]
    _poll_once(lambda: poll(settings, store), "imap", mails, taken, args, tally)
    return refused


def _share(mails: list[Mail], timer: Timer, path: str, args: argparse.Namespace, tally: Tally) -> None:
    """A batched poll's time, shared among its mails; a poll over the limit counts as a hang."""
    if not mails:
        return
    if timer.cpu > args.hang:
        tally.hangs.append(f"{path} poll of {len(mails)} mails ({mails[0].n}-{mails[-1].n}): {timer.cpu:.2f} s CPU")
    for m in mails:
        m.store_wall, m.store_cpu = timer.wall / len(mails), timer.cpu / len(mails)


def find_rows(store: Store, imap_key: str, mails: list[Mail]) -> None:
    """The row of each batched mail: by IMAP UID, else as the store deduplicates (Message-ID, else bytes)."""
    with store.read() as s:
        for m in mails:
            if m.row is not None:
                continue
            if m.uid is not None:
                m.row = s.scalar(select(IncomingMail.id).where(IncomingMail.mailbox == imap_key,
                                                               IncomingMail.uid == m.uid))
                if m.row is not None:
                    continue
            for raw in ([m.held] if m.held is not None else []) + [m.raw]:
                message_id = stored_fields(raw)[0]
                if message_id is not None:
                    m.row = s.scalar(select(IncomingMail.id).where(IncomingMail.message_id == message_id))
                else:
                    m.row = s.scalar(select(IncomingMail.id).where(
                        IncomingMail.sha256 == hashlib.sha256(raw).hexdigest(),
                        IncomingMail.message_id.is_(None)).order_by(IncomingMail.id).limit(1))
                if m.row is not None:
                    break


# -- processing ----------------------------------------------------------------------------------------------
def process_all(store: Store, settings: Settings, args: argparse.Namespace, tally: Tally
                ) -> dict[int, tuple[float, float]]:
    """Process waiting mails one at a time: {store id: (wall, CPU)}."""
    times: dict[int, tuple[float, float]] = {}
    while True:
        timer = Timer(args.hang * 10)
        try:
            with timer:
                report = process_pending(store, settings, limit=1, gm_handler=referee_gm_handler)
        except Exception as exc:   # process_pending records a failing mail as error; this is worse
            tally.crashes.append(f"process_pending raised: {type(exc).__name__}: {exc}"[:300])
            break
        if not report.ids:
            return times
        times[report.ids[0]] = (timer.wall, timer.cpu)
    return times


def settle(store: Store, mails: list[Mail], times: dict[int, tuple[float, float]], args: argparse.Namespace,
           tally: Tally) -> None:
    """Each mail's disposition, read from the database; the round's hangs and crashes."""
    rows = {m.row for m in mails if m.row is not None}
    with store.read() as s:
        found = {r.id: (r.outcome, r.reason) for r in
                 s.execute(select(IncomingMail.id, IncomingMail.outcome, IncomingMail.reason)
                           .where(IncomingMail.id.in_(rows)))}
    for m in mails:
        outcome, reason = found.get(m.row, ("none", None)) if m.row is not None else ("none", None)
        m.outcome = outcome
        if m.row in times:
            m.proc_wall, m.proc_cpu = times.pop(m.row)
        if outcome in ("none", "new"):
            if args.keep is not None:
                args.keep.mkdir(exist_ok=True)
                (args.keep / f"undisposed-{m.n}.eml").write_bytes(m.raw)
                if m.held is not None:
                    (args.keep / f"undisposed-{m.n}.held.eml").write_bytes(m.held)
            tally.undisposed.append(f"mail {m.n} ({m.kind}, {m.path}): " + ("no row" if outcome == "none"
                                                                            else f"row {m.row} still new"))
        elif outcome == "error":
            if reason and reason.startswith("Hang"):
                tally.hangs.append(f"mail {m.n} ({m.kind}, {m.path}): processing cut off after "
                                   f"{args.hang * 10:.0f} s (recorded error)")
            else:
                tally.crashes.append(f"mail {m.n} ({m.kind}, {m.path}): processing recorded error: {reason}"[:300])
        if m.cpu > args.hang:
            tally.hangs.append(m.describe())
        elif m.wall > args.hang:
            tally.slow.append(m.describe())
        m.raw, m.held = b"", None   # kept no longer than its round (the header floods are 1.5 MB each)
    if times:   # processed, but no mail of the round maps to the row
        tally.notes["rows processed that no mail of the round maps to"] += len(times)


# -- the run ---------------------------------------------------------------------------------------------------
def parse_shares(text: str) -> dict[str, float]:
    shares = {name: float(value) for name, _, value in (part.partition("=") for part in text.split(","))}
    unknown = set(shares) - set(PATHS)
    if unknown:
        raise SystemExit(f"--shares: unknown paths {sorted(unknown)} (known: {', '.join(PATHS)})")
    return shares


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mails", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=22)
    parser.add_argument("--time-limit", type=float, default=3600.0, help="stop after this many seconds")
    parser.add_argument("--hang", type=float, default=2.0, help="seconds of CPU a mail may take at most")
    parser.add_argument("--batch", type=int, default=50, help="mails a round")
    parser.add_argument("--shares", default="direct=0.6,maildir=0.25,imap=0.149,ingest=0.001",
                        help="the share of mails taking each path")
    parser.add_argument("--no-imap", action="store_true", help="no Dovecot: IMAP mails go the direct way")
    parser.add_argument("--database-url", default=None)
    parser.add_argument("--no-community", action="store_true", help="without the community's seeds (issue 41)")
    parser.add_argument("--progress", type=int, default=2000, help="a progress line every N mails (stderr)")
    args = parser.parse_args()
    shares = parse_shares(args.shares)
    args.keep = None
    if args.no_imap:
        shares["direct"] = shares.get("direct", 0) + shares.pop("imap", 0)

    logging.getLogger("referee").setLevel(logging.CRITICAL)   # refusals are expected here; crashes are counted
    rng = random.Random(args.seed)
    work = Path(tempfile.mkdtemp(prefix="referee-fuzz-", dir="/dev/shm" if Path("/dev/shm").is_dir() else None))
    url = args.database_url or f"sqlite:///{work}/fuzz.sqlite3"
    args.keep = work / "kept"   # mails without a disposition, for a closer look
    print(f"fuzz_intake: working in {work}", file=sys.stderr, flush=True)
    store = Store(url)
    store.upgrade()
    settings = hostile_settings(url, error_replies_per_hour=5, maildir_in=str(work / "in"),
                                maildir_out=str(work / "out"))
    inbox = work / "in"
    for sub in ("tmp", "new", "cur"):
        (inbox / sub).mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "REFEREE_DATABASE_URL": url, "REFEREE_REFEREE_ADDRESS": REFEREE, "REFEREE_GM_ADDRESS": GM,
           "REFEREE_GM_SECRET": GM_SECRET, "REFEREE_SIGNING_KEY": "intake-tests", "REFEREE_TRANSPORT": "smtp"}
    env.pop("REFEREE_CONFIG", None)
    server: Dovecot | None = None
    imap_settings = settings
    imap_key = ""
    if shares.get("imap"):
        server = start_dovecot(Path(tempfile.mkdtemp(prefix="referee-fuzz-dovecot-")))
        imap_settings = settings_for(server, url)
        imap_key = imap_mailbox_key(imap_settings)
    code = new_game(store)
    seeds = good_mails(store, code, rng)
    if not args.no_community:
        seeds += community_mails(store, settings, code, rng)
    signal.signal(signal.SIGALRM, _alarm)
    signal.signal(signal.SIGTERM, _stop)
    signal.signal(signal.SIGINT, _stop)
    names, weights = zip(*shares.items(), strict=True)

    tally = Tally()
    done: list[Mail] = []
    started = time.monotonic()
    next_progress = args.progress
    try:
        for start in range(0, args.mails, args.batch):
            if time.monotonic() - started > args.time_limit or STOP:
                break
            mails = []
            for n in range(start, min(start + args.batch, args.mails)):
                kind, raw = make_mail(seeds, rng)
                mails.append(Mail(n, kind, rng.choices(names, weights)[0], raw))
            by_path: dict[str, list[Mail]] = defaultdict(list)
            for m in mails:
                by_path[m.path].append(m)
            if by_path["imap"]:
                assert server is not None
                for m in store_imap(store, imap_settings, server, by_path["imap"], args, tally):
                    tally.notes["refused by Dovecot's APPEND, sent the direct way"] += 1
                    m.path = "direct"
                    by_path["direct"].append(m)
            if by_path["maildir"]:
                store_maildir(store, settings, inbox, by_path["maildir"], args, tally)
            store_ingest(env, by_path["ingest"], args, tally)
            store_direct(store, by_path["direct"], args, tally)
            find_rows(store, imap_key, by_path["maildir"] + by_path["imap"])
            settle(store, mails, process_all(store, settings, args, tally), args, tally)
            done.extend(mails)
            if len(done) >= next_progress:
                next_progress += args.progress
                elapsed = time.monotonic() - started
                print(f"  ... {len(done)} mails in {elapsed:.0f} s ({len(done) / elapsed:.1f} mails/s); crashes "
                      f"{len(tally.crashes)}, hangs {len(tally.hangs)}, undisposed {len(tally.undisposed)}",
                      file=sys.stderr, flush=True)
    finally:
        if server is not None:
            server.stop()
    wall = time.monotonic() - started
    with store.read() as s:
        left_new = s.scalar(select(func.count()).select_from(IncomingMail).where(IncomingMail.outcome == "new"))
        rows = s.scalar(select(func.count()).select_from(IncomingMail))
    store.close()
    report(args, done, tally, wall, rows or 0, left_new or 0, url)
    return 1 if tally.crashes or tally.hangs or tally.undisposed or left_new else 0


def report(args: argparse.Namespace, done: list[Mail], tally: Tally, wall: float, rows: int, left_new: int,
           url: str) -> None:
    print(f"fuzz_intake: seed {args.seed}, {len(done)} of {args.mails} mails in {wall:.0f} s "
          f"({len(done) / max(wall, 1e-9):.1f} mails/s)"
          + ("" if len(done) == args.mails else " (stopped by a signal)" if STOP
             else f" (stopped at the time limit of {args.time_limit:.0f} s)"))
    print(f"  database: {url} ({rows} rows: copies of one Message-ID are stored once; {left_new} left new)")
    outcomes = sorted({m.outcome for m in done})
    for title, key in (("path", lambda m: m.path), ("mutation", lambda m: m.kind)):
        table: dict[str, Counter[str]] = defaultdict(Counter)
        for m in done:
            table[key(m)][m.outcome] += 1
        print(f"\n  | {title} | mails | " + " | ".join(outcomes) + " |")
        print("  |---|---:|" + "---:|" * len(outcomes))
        for name in sorted(table):
            print(f"  | {name} | {sum(table[name].values())} | "
                  + " | ".join(str(table[name][o]) for o in outcomes) + " |")
        total = Counter(m.outcome for m in done)
        print(f"  | all | {len(done)} | " + " | ".join(str(total[o]) for o in outcomes) + " |")
    if done:
        cpus = sorted(m.cpu for m in done)
        walls = sorted(m.wall for m in done)
        print(f"\n  per mail (storing share + processing): CPU median {statistics.median(cpus) * 1000:.1f} ms, "
              f"99th percentile {cpus[int(len(cpus) * 0.99)] * 1000:.0f} ms, max {cpus[-1]:.2f} s; wall median "
              f"{statistics.median(walls) * 1000:.1f} ms, max {walls[-1]:.2f} s")
        for path in PATHS:
            some = [m.cpu for m in done if m.path == path]
            if some:
                print(f"    {path}: CPU median {statistics.median(some) * 1000:.1f} ms, max {max(some):.2f} s")
        print("  slowest mails (CPU):")
        for m in sorted(done, key=lambda m: m.cpu, reverse=True)[:10]:
            print(f"    {m.describe()}")
    print(f"\n  crashes: {len(tally.crashes)}, hangs (over {args.hang:g} s of CPU): {len(tally.hangs)}, "
          f"without a disposition: {len(tally.undisposed)}; over {args.hang:g} s of wall time only: {len(tally.slow)}")
    for name, count in sorted(tally.notes.items()):
        print(f"  {name}: {count}")
    for line in (tally.crashes + tally.hangs + tally.undisposed)[:30]:
        print(f"    {line}")
    for line in tally.slow[:5]:
        print(f"    (wall only) {line}")


if __name__ == "__main__":
    sys.exit(main())
