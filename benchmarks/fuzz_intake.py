"""A fuzz run of the mail intake: hostile and broken mails stored and processed, one by one.

    .venv/bin/python benchmarks/fuzz_intake.py [--mails 10000] [--seed 22] [--time-limit 3600]
                                               [--hang 2.0] [--database-url URL]

Builds mails from a seeded random generator, each from a good mail (orders with the right key, a
wrong key, HELP, STATUS, a GM block, a reply, HTML) changed by one or more of: byte flips,
truncation, header shuffles and duplicates, random MIME trees (nesting, odd charsets and transfer
encodings, broken boundaries), and the recursion bombs of ``tests/intake/bombs.py`` (nested
comments, angle brackets, encoded words and multiparts; header floods). Each mail is stored as
``referee ingest`` stores it (:func:`referee.intake.maildir.ingest_bytes`), then processed
(:func:`referee.intake.process.process_pending`, the referee's own GM handler).

Counted: crashes (storing raised, or processing recorded ``error``), hangs (a mail taking more than
``--hang`` seconds of CPU to store and process; a mail is cut off by an alarm at ten times that in
wall time) and mails left without a disposition (still ``new``). Mails over ``--hang`` seconds of
wall time but not of CPU (a busy machine) are counted apart. Exit status 1 if any. Stops early, saying so, when
``--time-limit`` seconds have passed. The database is a new SQLite file unless ``--database-url``.
"""

from __future__ import annotations

import argparse
import logging
import random
import re
import signal
import statistics
import sys
import tempfile
import time
from collections import Counter
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from referee.intake.maildir import ingest_bytes  # noqa: E402
from referee.intake.process import process_pending, referee_gm_handler  # noqa: E402
from referee.store import Store  # noqa: E402
from referee.store.models import IncomingMail  # noqa: E402
from tests.intake.bombs import BOMBS  # noqa: E402
from tests.intake.helpers import GM, GM_SECRET, address, block, hand, new_game, program_lines  # noqa: E402
from tests.intake.stored import hostile_settings  # noqa: E402

CHARSETS = ["utf-8", "iso-8859-1", "utf-16", "utf-7", "shift_jis", "koi8-r", "x-unknown", "unicode_escape", ""]
ENCODINGS = ["7bit", "8bit", "base64", "quoted-printable", "x-uuencode", "garbage"]
SENDERS = [address("alice"), address("bob"), "Alice <ALICE@example.test>", '"alice"@example.test',
           f"{GM} <evil@attacker.example>", "stranger@elsewhere.test", "MAILER-DAEMON@example.test", "<>",
           "=?utf-8?q?=E2=80=AE?= <carol@example.test>", "(" * 50 + ")" * 50 + " bob@example.test", ""]


_MESSAGE_ID = re.compile(rb"^Message-ID: <[^>\r\n]*>", re.MULTILINE | re.IGNORECASE)


class Hang(Exception):
    pass


def _alarm(_signum: int, _frame: object) -> None:
    raise Hang


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
            msg = EmailMessage()
            msg["From"] = sender
            msg["To"] = "referee@example.test"
            msg["Subject"] = f"{code} orders"
            msg["Message-ID"] = make_msgid(domain="fuzz.example.test")
            msg.set_content(body)
            if rng.random() < 0.3:
                msg.add_alternative(f"<p>{body}</p>", subtype="html")
            out.append(bytes(msg))
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
            f"Message-ID: {make_msgid(domain='fuzz.example.test')}\r\nMIME-Version: 1.0\r\n").encode()
    return head + random_mime(rng)


def bomb(rng: random.Random) -> bytes:
    return rng.choice(list(BOMBS.values()))()


def make_mail(seeds: list[bytes], rng: random.Random) -> tuple[str, bytes]:
    roll = rng.random()
    if roll < 0.03:
        return "bomb", bomb(rng)
    if roll < 0.25:
        return "random MIME", mime_mail(rng)
    # a Message-ID of its own (a copy of a stored one would be stored once, and not read again)
    raw = _MESSAGE_ID.sub(f"Message-ID: {make_msgid(domain='fuzz.example.test')}".encode(), rng.choice(seeds),
                          count=1)
    shape = rng.choice(["flip", "truncate", "shuffle", "flip+shuffle", "as is"])
    if "shuffle" in shape:
        raw = shuffle_headers(raw, rng)
    if "flip" in shape:
        raw = flip(raw, rng)
    if shape == "truncate":
        raw = truncate(raw, rng)
    return shape, raw


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mails", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=22)
    parser.add_argument("--time-limit", type=float, default=3600.0, help="stop after this many seconds")
    parser.add_argument("--hang", type=float, default=2.0, help="seconds a mail may take at most")
    parser.add_argument("--database-url", default=None)
    args = parser.parse_args()

    logging.getLogger("referee").setLevel(logging.ERROR)   # refusals are expected here; crashes are counted
    rng = random.Random(args.seed)
    url = args.database_url or f"sqlite:///{tempfile.mkdtemp(prefix='referee-fuzz-')}/fuzz.sqlite3"
    store = Store(url)
    store.upgrade()
    settings = hostile_settings(url, error_replies_per_hour=5)
    code = new_game(store)
    seeds = good_mails(store, code, rng)
    signal.signal(signal.SIGALRM, _alarm)

    times: list[float] = []
    shapes: Counter[str] = Counter()
    outcomes: Counter[str] = Counter()
    crashes: list[str] = []
    hangs: list[str] = []
    slow: list[str] = []   # over the limit in wall time only: the machine was busy, the mail was not
    cpu_times: list[float] = []
    started = time.monotonic()
    done = 0
    for n in range(args.mails):
        if time.monotonic() - started > args.time_limit:
            break
        shape, raw = make_mail(seeds, rng)
        shapes[shape] += 1
        t0, c0 = time.perf_counter(), time.process_time()
        signal.setitimer(signal.ITIMER_REAL, args.hang * 10)
        try:
            ingest_bytes(store, raw)
            process_pending(store, settings, gm_handler=referee_gm_handler)
        except Hang:
            hangs.append(f"mail {n} ({shape}): cut off after {args.hang * 10:.0f} s")
        except Exception as exc:   # a crash: counted, and the run goes on
            crashes.append(f"mail {n} ({shape}): {type(exc).__name__}: {exc}"[:300])
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        elapsed, cpu = time.perf_counter() - t0, time.process_time() - c0
        times.append(elapsed)
        cpu_times.append(cpu)
        if cpu > args.hang:
            hangs.append(f"mail {n} ({shape}): {cpu:.2f} s of CPU")
        elif elapsed > args.hang:
            slow.append(f"mail {n} ({shape}): {elapsed:.2f} s waiting, {cpu:.2f} s of CPU")
        done += 1

    with store.read() as s:
        for m in s.query(IncomingMail.outcome, IncomingMail.reason):
            outcomes[m.outcome] += 1
            if m.outcome == "error":
                crashes.append(f"processing recorded error: {m.reason}"[:300])
    store.close()
    wall = time.monotonic() - started
    undisposed = outcomes.get("new", 0)
    print(f"fuzz_intake: seed {args.seed}, {done} of {args.mails} mails in {wall:.0f} s"
          + ("" if done == args.mails else f" (stopped at the time limit of {args.time_limit:.0f} s)"))
    print(f"  shapes: {', '.join(f'{k} {v}' for k, v in sorted(shapes.items()))}")
    print(f"  stored rows by outcome: {', '.join(f'{k} {v}' for k, v in sorted(outcomes.items()))}"
          " (copies of one Message-ID are stored once)")
    if times:
        print(f"  per mail: median {statistics.median(times) * 1000:.1f} ms, max {max(times):.2f} s "
              f"(CPU: median {statistics.median(cpu_times) * 1000:.1f} ms, max {max(cpu_times):.2f} s), "
              f"{done / wall:.0f} mails/s")
    print(f"  crashes: {len(crashes)}, hangs (over {args.hang:g} s of CPU): {len(hangs)}, "
          f"without a disposition: {undisposed}; over {args.hang:g} s waiting only: {len(slow)}")
    for line in (crashes + hangs)[:20]:
        print(f"    {line}")
    return 1 if crashes or hangs or undisposed else 0


if __name__ == "__main__":
    sys.exit(main())
