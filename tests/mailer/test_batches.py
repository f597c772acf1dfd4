"""One outbox pass drains the outbox: it sends every due mail, ``outbox_batch`` at a time, and starts no new
batch after ``outbox_pass_seconds``; what it leaves is counted and said, never silently kept for the next
cron run."""

from __future__ import annotations

import logging
from pathlib import Path

from referee.common.config import Settings
from referee.mailer import send_outbox
from tests.reports.helpers import PLAYERS, SETTINGS, T0, new_game, outbox

from .conftest import FAST


def _maildir(tmp_path: Path, **changes: object) -> Settings:
    return SETTINGS.with_overrides(transport="maildir", maildir_out=str(tmp_path / "out"), **changes)


def _queue_games(store, count: int) -> int:
    """``count`` started games, their start mails queued; how many mails that is."""
    for _ in range(count):
        new_game(store)
    return len(outbox(store, status="pending"))


class SteppingClock:
    """A monotonic clock that moves ``step`` seconds each time it is read (a pass reads it between batches)."""

    def __init__(self, step: float) -> None:
        self.step, self.now = step, 0.0

    def __call__(self) -> float:
        value, self.now = self.now, self.now + self.step
        return value


async def test_a_pass_sends_every_due_mail_over_several_batches(store, tmp_path):
    queued = _queue_games(store, 3)
    assert queued == 3 * (len(PLAYERS) + 1) == 12
    settings = _maildir(tmp_path, outbox_batch=5)
    report = await send_outbox(store, settings, now=T0, policy=FAST)
    assert report.sent == queued and report.left == 0
    assert report.batches == 3  # 5 + 5 + 2 mails, and the third finds nothing more due
    assert "in 3 batches" in report.summary() and "left" not in report.summary()
    assert not outbox(store, status="pending")
    assert len(list((tmp_path / "out" / "new").iterdir())) == queued


async def test_a_pass_that_runs_out_of_time_says_how_many_mails_wait(store, tmp_path, caplog):
    queued = _queue_games(store, 3)
    settings = _maildir(tmp_path, outbox_batch=4, outbox_pass_seconds=60)
    with caplog.at_level(logging.WARNING, logger="referee.mailer"):
        report = await send_outbox(store, settings, now=T0, policy=FAST, clock=SteppingClock(50))
    # started at 0 s; after the first batch 50 s have passed (a second batch), after the second 100 s: stop
    assert report.batches == 2 and report.sent == 8
    assert report.left == queued - 8 == len(outbox(store, status="pending"))
    assert f"{queued - 8} due mail(s) left for the next pass (outbox_pass_seconds = 60 reached)" in report.summary()
    assert any("left for the next pass" in r.getMessage() for r in caplog.records)

    later = await send_outbox(store, settings, now=T0, policy=FAST)
    assert later.sent == queued - 8 and later.left == 0


async def test_a_limit_stops_the_pass_and_is_named(store, tmp_path):
    queued = _queue_games(store, 2)
    report = await send_outbox(store, _maildir(tmp_path, outbox_batch=3), now=T0, policy=FAST, limit=5)
    assert report.sent == 5 and report.batches == 2
    assert report.left == queued - 5
    assert "(--limit 5)" in report.summary()
