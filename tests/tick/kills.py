"""Killing real ``referee tick`` and ``referee ingest`` processes (SIGKILL) while they work, then counting
what was lost, done twice or sent twice. Used by ``test_kills.py`` (a bounded run) and by
``benchmarks/kill_intake.py`` (the big one).

Two rigs:

- :func:`gm_kills`: the Maildir transport; GM mails (each ``NEWGAME`` of its own game) go into the
  inbox Maildir and ticks are killed, half of them right after a mail's GM commands were carried out
  and before anything was committed (``REFEREE_INTAKE_FAULT=gm-carried-out:N``), half at random points.
- :func:`smtp_kills`: the SMTP transport (``transport = "smtp"``): mails come in through
  ``referee ingest`` (killed at random times too; a mail whose ingest did not exit 0 is piped again,
  as an MTA does) and answers go out through a real SMTP server into Dovecot, where every copy that
  arrived is counted by Message-ID.

"At random times" is at a random amount of the process's processor time (``tests/servers/processes.py``):
the same point of its work on a quiet machine and on a loaded one, so the kills land alike under any load. The
tests fork the ticks from a Python that imported the product once (``Rig.forker``); the ingests, and every
process of the benchmark, start a fresh interpreter as the mail server and cron start them.
"""

from __future__ import annotations

import asyncio
import random
import signal
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.utils import format_datetime
from mailbox import Maildir
from pathlib import Path

from sqlalchemy import func, select

from referee.intake.faults import ENV as FAULT_ENV
from referee.store import Store
from referee.store.mail_models import IncomingMail, OutgoingMail
from referee.store.models import AuditEntry, Game, Order
from tests.intake.helpers import (
    GM,
    GM_SECRET,
    PLAYERS,
    REFEREE,
    address,
    block,
    hand,
    message_ids,
    new_game,
    program_lines,
)
from tests.intake.helpers import mail as player_mail
from tests.servers.forked import Forked, Forker
from tests.servers.processes import HANG, kill_at_cpu, run_measured

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class KillReport:
    """What a run did and what it found afterwards."""

    attempts: int = 0
    #: processes that died of SIGKILL: ticks, and ingests
    tick_kills: int = 0
    ingest_kills: int = 0
    #: ticks killed by the fault point inside a GM mail (commands carried out, nothing committed)
    gm_midway_kills: int = 0
    mails: int = 0
    gm_mails: int = 0
    #: mails not stored, or stored but never processed to the expected outcome
    lost: list[str] = field(default_factory=list)
    #: GM mails not carried out, carried out twice, or not answered exactly once
    gm_lost: list[str] = field(default_factory=list)
    gm_twice: list[str] = field(default_factory=list)
    #: player mails without exactly one order and one echo
    orders_wrong: list[str] = field(default_factory=list)
    #: outgoing mails never sent (or never delivered), and those delivered more than once
    unsent: list[str] = field(default_factory=list)
    outgoing: int = 0
    doubled: int = 0
    #: resends the referee itself counted (mails found 'sending': possible duplicates)
    resends: int = 0
    #: whether copies were counted where they arrived (SMTP into Dovecot; a Maildir file sent again
    #: replaces itself)
    deliveries_counted: bool = False
    seconds: float = 0.0

    @property
    def kills(self) -> int:
        return self.tick_kills + self.ingest_kills

    def line(self) -> str:
        return (f"{self.attempts} runs, {self.kills} killed ({self.tick_kills} ticks, {self.ingest_kills} ingests, "
                f"{self.gm_midway_kills} inside a GM mail); {self.mails} mails ({self.gm_mails} GM): "
                f"{len(self.lost)} lost, {len(self.gm_lost)} GM lost, {len(self.gm_twice)} GM twice, "
                f"{len(self.orders_wrong)} orders wrong; {self.outgoing} mails out: {len(self.unsent)} unsent, "
                + (f"{self.doubled} delivered twice" if self.deliveries_counted else "copies not counted")
                + f" ({self.resends} resends counted by the referee) in {self.seconds:.0f} s")


@dataclass
class Rig:
    """Where the processes find everything: the database, the Maildirs, the SMTP server."""

    db_url: str
    workdir: Path
    transport: str = "maildir"
    smtp_port: int = 0
    #: processes forked from a Python that imported the product once (tests/servers/forked.py); None: a fresh
    #: ``python -m referee.cli`` each time
    forker: Forker | None = None

    def env(self, *, fault: str | None = None, now: datetime | None = None) -> dict[str, str]:
        env = {"PATH": "/usr/bin:/bin", "HOME": str(self.workdir), "REFEREE_CONFIG": "",
               "REFEREE_DATABASE_URL": self.db_url, "REFEREE_TRANSPORT": self.transport,
               "REFEREE_MAILDIR_IN": str(self.workdir / "in"), "REFEREE_MAILDIR_OUT": str(self.workdir / "out"),
               "REFEREE_LOCK_FILE": str(self.workdir / "tick.lock"), "REFEREE_REFEREE_ADDRESS": REFEREE,
               "REFEREE_GM_ADDRESS": GM, "REFEREE_GM_SECRET": GM_SECRET, "REFEREE_SIGNING_KEY": "kill-tests",
               "REFEREE_SMTP_HOST": "127.0.0.1", "REFEREE_SMTP_PORT": str(self.smtp_port or 587),
               "REFEREE_SMTP_TLS": "none", "REFEREE_MAIL_TIMEOUT": "10", "REFEREE_TICK_INTERVAL": "86400"}
        if fault:
            env[FAULT_ENV] = fault
        if now:
            env["REFEREE_NOW"] = now.isoformat()
        return env

    def start(self, args: list[str], *, fault: str | None = None, now: datetime | None = None,
              stdin: int | None = subprocess.DEVNULL, fresh: bool = False) -> subprocess.Popen[bytes] | Forked:
        """``referee ARGS``, forked (when the rig has a forker and not ``fresh``) or in a fresh interpreter."""
        if self.forker and not fresh:
            return self.forker.start(args, env=self.env(fault=fault, now=now), cwd=ROOT,
                                     stdin=None if stdin == subprocess.DEVNULL else stdin)
        return subprocess.Popen([sys.executable, "-m", "referee.cli", *args], env=self.env(fault=fault, now=now),
                                cwd=ROOT, stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE)

    def tick(self, *, now: datetime | None = None) -> float:
        """A tick left to finish; the processor time it used."""
        proc = self.start(["tick"], now=now)
        out, err, cpu = run_measured(proc)
        assert proc.returncode == 0, (out + err).decode(errors="replace")
        return cpu

    def deliver(self, raw: bytes) -> None:
        """Into the inbox Maildir, as a mail server would."""
        Maildir(str(self.workdir / "in"), create=True).add(raw)


def _killed(proc: subprocess.Popen[bytes] | Forked) -> bool:
    proc.communicate(timeout=HANG)
    return proc.returncode == -signal.SIGKILL


def gm_mail(code: str, n: int) -> bytes:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = GM, REFEREE, f"new game {code}"
    msg["Date"] = format_datetime(datetime.now(UTC))
    msg["Message-ID"] = f"<gm-{n}.{code}@gm.example.test>"
    msg.set_content(f"BEGIN GM key {GM_SECRET}\nNEWGAME {code} COURSE sprint\nEND\n")
    return msg.as_bytes()


# -- GM mails, Maildir transport ------------------------------------------------------------------------------
def gm_kills(rig: Rig, store: Store, *, midway: int, per_run: int = 3, seed: int = 5) -> KillReport:
    """Kill ticks until ``midway`` of them died inside a GM mail (and as many at random times)."""
    rng = random.Random(seed)
    report = KillReport()
    began = time.monotonic()
    startup = rig.tick()
    codes: list[str] = []
    while report.gm_midway_kills < midway:
        for _ in range(per_run):
            code = f"K{len(codes):04d}"
            rig.deliver(gm_mail(code, len(codes)))
            codes.append(code)
        report.attempts += 1
        if report.attempts % 2:
            proc = rig.start(["tick"], fault=f"gm-carried-out:{rng.randint(1, per_run)}")
            if _killed(proc):
                report.tick_kills += 1
                report.gm_midway_kills += 1
        elif kill_at_cpu(rig.start(["tick"]), rng.uniform(0.7, 1.4) * startup):
            report.tick_kills += 1
    rig.tick(now=datetime.now(UTC) + timedelta(hours=1))  # every lease of a killed sender has run out
    report.mails = report.gm_mails = len(codes)
    _check_gm(store, codes, report)
    _check_sent(store, report)
    report.seconds = time.monotonic() - began
    return report


def _check_gm(store: Store, codes: list[str], report: KillReport) -> None:
    """Each GM mail: stored, accepted, its NEWGAME carried out once, one answer saying it was done."""
    with store.read() as s:
        created = Counter(s.scalars(select(Game.code).join(AuditEntry, AuditEntry.game_id == Game.id)
                                    .where(AuditEntry.action == "game.new")))
        for n, code in enumerate(codes):
            row = s.scalars(select(IncomingMail).where(IncomingMail.message_id == f"<gm-{n}.{code}@gm.example.test>")
                            ).one_or_none()
            if row is None or row.outcome != "accepted":
                report.lost.append(code)
                continue
            answers = s.scalars(select(OutgoingMail).where(OutgoingMail.in_reply_to_id == row.id,
                                                           OutgoingMail.kind == "gm_answer")).all()
            if created[code] == 0 or len(answers) == 0:
                report.gm_lost.append(code)
            elif created[code] > 1 or len(answers) > 1:
                report.gm_twice.append(code)
            elif b"1 command(s) done, 0 not done" not in answers[0].raw:
                report.gm_twice.append(code)  # carried out before: the second run found the game there


def _check_sent(store: Store, report: KillReport) -> None:
    with store.read() as s:
        rows = s.execute(select(OutgoingMail.message_id, OutgoingMail.status, OutgoingMail.resends)).all()
    report.outgoing = len(rows)
    report.unsent += [m for m, status, _ in rows if status != "sent"]
    report.resends = sum(r for _, _, r in rows)


# -- orders and GM mail, SMTP transport -------------------------------------------------------------------------
def smtp_kills(rig: Rig, store: Store, dovecot: object, *, tick_kills: int, orders_per_run: int = 1,
               ingest_kill_rate: float = 0.3, seed: int = 9, max_attempts: int | None = None) -> KillReport:
    """Pipe player orders and GM mails into ``referee ingest`` and run ticks, killing both at random
    points, until ``tick_kills`` ticks died (or after ``max_attempts`` ticks); then a tick an hour on
    (every lease has run out) finishes."""
    rng = random.Random(seed)
    report = KillReport()
    began = time.monotonic()
    for user in (*PLAYERS.values(), "gm"):
        dovecot.empty(user, "INBOX")  # type: ignore[attr-defined]
    game = new_game(store)
    cards = hand(store, game, "Twonky")
    startup = rig.tick()
    ingest_time = _ingest(rig, player_mail(address("alice"), "STATUS\n", msgid="<warm-up@client.example.test>"),
                          rng, kill=False, report=report)
    orders: list[str] = ["<warm-up@client.example.test>"]
    codes: list[str] = []
    while report.tick_kills < tick_kills and (max_attempts is None or report.attempts < max_attempts):
        batch = []
        for _ in range(orders_per_run):
            msgid = f"<order-{len(orders)}.{game}@client.example.test>"
            batch.append(player_mail(address("alice"), block(store, game, "Twonky",
                                                              program_lines(rng.sample(cards, 5))), msgid=msgid))
            orders.append(msgid)
        code = f"S{len(codes):04d}"
        batch.append(gm_mail(code, len(codes)))
        codes.append(code)
        for raw in batch:
            _ingest(rig, raw, rng, kill=rng.random() < ingest_kill_rate, report=report, typical=ingest_time)
        report.attempts += 1
        if kill_at_cpu(rig.start(["tick"]), rng.uniform(0.6, 1.4) * startup):
            report.tick_kills += 1
    rig.tick(now=datetime.now(UTC) + timedelta(hours=1))
    report.mails, report.gm_mails = len(orders) + len(codes), len(codes)
    _check_orders(store, orders[1:], report)
    _check_gm(store, codes, report)
    _check_sent(store, report)
    _count_deliveries(store, dovecot, report)
    report.seconds = time.monotonic() - began
    return report


def _ingest(rig: Rig, raw: bytes, rng: random.Random, *, kill: bool, report: KillReport,
            typical: float = 1.0) -> float:
    """Pipe ``raw`` into ``referee ingest`` until it exits 0 (an MTA keeps a mail and tries again
    after any other status); the first try is killed at a random point when ``kill`` (``typical``: the
    processor time of a whole ingest). The processor time of the try that stored it."""
    piped = rig.workdir / "piped.eml"
    piped.write_bytes(raw)
    for _ in range(10):
        with piped.open("rb") as stdin:
            proc = rig.start(["ingest"], stdin=stdin.fileno(), fresh=True)  # as the mail server starts it
        if kill:
            kill = False
            if kill_at_cpu(proc, rng.uniform(0.5, 1.1) * typical):
                report.ingest_kills += 1
                continue
            cpu = typical  # it ended before its kill point: about a whole ingest
        else:
            _, _, cpu = run_measured(proc)
        if proc.returncode == 0:
            return cpu
    raise AssertionError(f"referee ingest never stored the mail: {proc.communicate()}")


def _check_orders(store: Store, msgids: list[str], report: KillReport) -> None:
    """Each order mail: stored once, accepted, one order and one echo."""
    with store.read() as s:
        for msgid in msgids:
            row = s.scalars(select(IncomingMail).where(IncomingMail.message_id == msgid)).one_or_none()
            if row is None or row.outcome != "accepted":
                report.lost.append(msgid)
                continue
            n_orders = s.scalar(select(func.count()).select_from(Order).where(Order.incoming_mail_id == row.id))
            n_echoes = s.scalar(select(func.count()).select_from(OutgoingMail)
                                .where(OutgoingMail.in_reply_to_id == row.id, OutgoingMail.kind == "echo"))
            if (n_orders, n_echoes) != (1, 1):
                report.orders_wrong.append(f"{msgid}: {n_orders} orders, {n_echoes} echoes")


def _count_deliveries(store: Store, dovecot: object, report: KillReport) -> None:
    """Every outgoing mail, looked up in its recipients' mailboxes: missing, or there more than once."""
    report.deliveries_counted = True
    arrived: Counter[tuple[str, str]] = Counter()
    for user in (*PLAYERS.values(), "gm"):
        for msgid in asyncio.run(message_ids(dovecot, "INBOX", user=user)):
            arrived[(address(user), msgid)] += 1
    with store.read() as s:
        rows = s.execute(select(OutgoingMail.message_id, OutgoingMail.recipients)).all()
    for msgid, recipients in rows:
        for rcpt in recipients:
            copies = arrived[(rcpt, msgid)]
            if copies == 0:
                report.unsent.append(f"{msgid} to {rcpt}")
            elif copies > 1:
                report.doubled += 1
