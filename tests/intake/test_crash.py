"""Crash test: ``referee poll --process`` killed with SIGKILL at many points while it takes in a batch of
orders; afterwards every mail is in the store once, none is left in the inbox, and every mail gave
exactly one order and one echo.

Kills come two ways: at exact points of the intake (``REFEREE_INTAKE_FAULT``, see
referee/intake/faults.py), cycling through every point and its first few passes; and at random
points of the poller's processor time from late in its start-up on (tests/servers/processes.py: the same
point of its work under any load). The pollers are forked from a Python that has imported the product once
(tests/servers/forked.py): each is a process of its own, killed by a real SIGKILL, without the imports a fresh
interpreter spends most of a short run on. Each test (one per database) injects at least ``CRASHES`` crashes;
``REFEREE_TEST_CRASHES=60`` gives the long run (well over a hundred over SQLite and PostgreSQL).
"""

from __future__ import annotations

import os
import random
import signal
from pathlib import Path

import pytest
from sqlalchemy import func, select

from referee.common.config import Settings
from referee.intake.faults import ENV as FAULT_ENV
from referee.intake.faults import POINTS
from referee.store.mail_models import IncomingMail, OutgoingMail
from referee.store.models import Order
from tests.servers.forked import Forked, Forker
from tests.servers.processes import kill_at_cpu, run_measured

from .helpers import address, append, block, count, hand, message_ids, new_game, program_lines
from .helpers import mail as make_mail

CRASHES = int(os.environ.get("REFEREE_TEST_CRASHES") or 24)
#: some 60 processes started one after another: minutes on a loaded machine; the limit is for a hang only
pytestmark = pytest.mark.timeout(1800)
#: mails delivered before each attempt: two batches' worth
PER_ATTEMPT = 6
BATCH = 4
ROOT = Path(__file__).resolve().parents[2]


def referee_env(settings: Settings, fault: str | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("REFEREE_")}
    env.update({"REFEREE_CONFIG": "", "REFEREE_DATABASE_URL": settings.database_url, "REFEREE_TRANSPORT": "imap",
                "REFEREE_REFEREE_ADDRESS": settings.referee_address, "REFEREE_GM_ADDRESS": settings.gm_address,
                "REFEREE_SIGNING_KEY": settings.signing_key, "REFEREE_IMAP_HOST": settings.imap_host,
                "REFEREE_IMAP_PORT": str(settings.imap_port), "REFEREE_IMAP_TLS": "none",
                "REFEREE_IMAP_USER": settings.imap_user, "REFEREE_IMAP_PASSWORD": settings.imap_password,
                "REFEREE_IMAP_PROCESSED": settings.imap_processed, "REFEREE_MAIL_TIMEOUT": "10"})
    if fault:
        env[FAULT_ENV] = fault
    return env


def start_poll(forker: Forker, settings: Settings, fault: str | None = None) -> Forked:
    return forker.start(["poll", "--process", "--batch", str(BATCH)], env=referee_env(settings, fault), cwd=ROOT)


def run_clean(forker: Forker, settings: Settings) -> float:
    """A poll left to finish; the processor time it used."""
    proc = start_poll(forker, settings)
    out, err, cpu = run_measured(proc)
    assert proc.returncode == 0, (out + err).decode(errors="replace")
    return cpu


#: how many times a point is met in a pass over a few mails (``connected`` and ``marked``: once)
PASSES = {"connected": 1, "fetched": 2, "storing": 5, "stored": 2, "moved": 2, "marked": 1}


def crash_once(forker: Forker, settings: Settings, rng: random.Random, attempt: int, startup: float) -> bool:
    """Start a poll and have it killed; whether it died of SIGKILL (it may also have finished first)."""
    if attempt % 2 == 0:
        point = POINTS[(attempt // 2) % len(POINTS)]
        proc = start_poll(forker, settings, f"{point}:{rng.randint(1, PASSES[point])}")
        run_measured(proc)
        return proc.returncode == -signal.SIGKILL
    # somewhere from late in the start-up to a little after a pass would be done
    return kill_at_cpu(start_poll(forker, settings), rng.uniform(0.8, 1.3) * startup)


async def test_killing_the_poller_anywhere_loses_and_doubles_nothing(dovecot, settings, store, forker):
    rng = random.Random(4)
    code = new_game(store)
    cards = hand(store, code, "Twonky")
    startup = run_clean(forker, settings)   # a pass over an empty inbox: start-up, login, select
    sent: list[str] = []
    crashes = attempts = checks = at_points = 0
    while crashes < CRASHES:
        batch = []
        for _ in range(PER_ATTEMPT):
            msgid = f"<crash-{len(sent)}.{code}@client.example.test>"
            body = block(store, code, "Twonky", program_lines(rng.sample(cards, 5)))
            batch.append(make_mail(address("alice"), body, msgid=msgid))
            sent.append(msgid)
        await append(dovecot, batch)
        crashed = crash_once(forker, settings, rng, attempts, startup)
        crashes += crashed
        at_points += crashed and attempts % 2 == 0
        attempts += 1
        if attempts % 10 == 0 or crashes >= CRASHES:
            run_clean(forker, settings)
            await check(dovecot, store, sent)
            checks += 1
    assert crashes >= CRASHES and checks >= 2
    assert at_points == len(range(0, attempts, 2))   # every try at a fault point crashed there


async def check(dovecot, store, sent: list[str]) -> None:
    """After a clean pass: every mail moved once, stored once, and turned into one order and one echo."""
    assert await count(dovecot, "INBOX") == 0
    assert sorted(await message_ids(dovecot, "Processed")) == sorted(sent)
    with store.read() as s:
        assert sorted(s.scalars(select(IncomingMail.message_id))) == sorted(sent)
        outcomes = s.execute(select(IncomingMail.outcome, func.count()).group_by(IncomingMail.outcome)).all()
        assert dict(outcomes) == {"accepted": len(sent)}
        per_mail = s.execute(select(Order.incoming_mail_id, func.count()).where(Order.incoming_mail_id.is_not(None))
                             .group_by(Order.incoming_mail_id)).all()
        assert len(per_mail) == len(sent) and {n for _, n in per_mail} == {1}
        echoes = s.execute(select(OutgoingMail.in_reply_to_id, func.count()).where(OutgoingMail.kind == "echo")
                           .group_by(OutgoingMail.in_reply_to_id)).all()
        assert len(echoes) == len(sent) and {n for _, n in echoes} == {1}
        assert s.scalar(select(func.count()).select_from(Order).where(Order.active.is_(True))) == 1
