"""Retention: mail no live game needs is kept whole for ``retention_days``, then the tick keeps only its
header and what was made of it. A running game's orders and GM mail are never reduced."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from mailbox import Maildir
from pathlib import Path

import pytest
from sqlalchemy import select

from referee import games as g
from referee.common.config import Settings
from referee.cron.tick import tick
from referee.store import Store
from referee.store.mail import reprocess
from referee.store.mail_models import IncomingMail
from tests.intake.helpers import GM, GM_SECRET, REFEREE, address, block, hand, mail, new_game, program_lines

BIG = 20 * 1024 * 1024


@pytest.fixture
def settings(tmp_path: Path, db_url: str) -> Settings:
    return Settings(database_url=db_url, referee_address=REFEREE, gm_address=GM, gm_secret=GM_SECRET,
                    transport="maildir", maildir_in=str(tmp_path / "in"), maildir_out=str(tmp_path / "out"),
                    lock_file=str(tmp_path / "tick.lock"), tick_interval=300, retention_days=30)


def deliver(settings: Settings, *raws: bytes) -> None:
    """Into the inbox Maildir, as the mail server would."""
    box = Maildir(str(settings.path(settings.maildir_in)), create=True)
    for raw in raws:
        box.add(raw)


def stored(store: Store) -> dict[str, IncomingMail]:
    with store.read() as s:
        return {m.subject: m for m in s.scalars(select(IncomingMail))}


def test_old_mail_of_strangers_loops_and_finished_games_is_reduced_to_its_header(store, settings):
    now = datetime.now(UTC)
    live, over = new_game(store), new_game(store)
    stranger = mail("someone@elsewhere.example", "x" * BIG, subject="stranger")
    deliver(settings, stranger,
            mail(address("bob"), "I am away.", subject="away", headers={"Auto-Submitted": "auto-replied"}),
            mail(address("alice"), block(store, live, "Twonky", program_lines(hand(store, live, "Twonky")[:5])),
                 subject="live orders"),
            mail(address("alice"), block(store, over, "Twonky", program_lines(hand(store, over, "Twonky")[:5])),
                 subject="orders of a game now over"),
            mail(GM, f"BEGIN GM {live} key {GM_SECRET}\nEXTEND 1d\nEND\n", subject="gm"))
    assert tick(settings, now=now, store=store).processed == 5
    with store.write() as s:
        g.end_game(s, over, actor="test", now=now)
    outcomes = {k: m.outcome for k, m in stored(store).items()}
    assert outcomes == {"stranger": "ignored", "away": "ignored", "live orders": "accepted",
                        "orders of a game now over": "accepted", "gm": "accepted"}
    whole = {k: m.raw for k, m in stored(store).items()}

    assert tick(settings, now=now + timedelta(days=29), store=store).purged == 0
    assert {k: m.raw for k, m in stored(store).items()} == whole

    later = now + timedelta(days=31)
    assert tick(settings, now=later, store=store).purged == 3
    mails = stored(store)
    for subject in ("stranger", "away", "orders of a game now over"):
        m = mails[subject]
        assert m.purged_at == later and m.raw == whole[subject][:len(m.raw)]
        assert m.raw.endswith(b"\r\n\r\n") and b"Subject: " + subject.encode() in m.raw
        assert m.size == len(whole[subject])     # what it was, and what was made of it, stay
    assert mails["stranger"].outcome == "ignored" and len(mails["stranger"].raw) < 1000
    for subject in ("live orders", "gm"):       # a running game's orders, and GM mail: whole
        assert mails[subject].raw == whole[subject] and mails[subject].purged_at is None

    with store.write() as s:                     # its body is gone: it cannot be processed again
        assert reprocess(s, outcome="ignored") == 0
    deliver(settings, stranger)                  # the same mail once more: still known, not stored again
    summary = tick(settings, now=later + timedelta(minutes=5), store=store)
    assert (summary.fetched, summary.processed, summary.purged) == (0, 0, 0)


def test_retention_days_0_keeps_every_mail_whole(store, settings):
    now = datetime.now(UTC)
    deliver(settings, mail("someone@elsewhere.example", "hello", subject="stranger"))
    forever = settings.with_overrides(retention_days=0)
    tick(forever, now=now, store=store)
    assert tick(forever, now=now + timedelta(days=3650), store=store).purged == 0
    assert stored(store)["stranger"].purged_at is None
