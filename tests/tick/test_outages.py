"""Outages by the cadence the ticks really come at (issue 41, item 9): an ordinary crontab (every 20 or 30
minutes, with the default ``tick_interval`` of 300 s) is no outage; a day without ticks is, and it moves a
deadline on once, however often the tick that finds it runs."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import select

from referee import games as g
from referee.common.config import Settings
from referee.cron import cadence
from referee.cron.tick import LAST_RUN, tick
from referee.games import states
from referee.mailer.value_checks import tick_cadence
from referee.store import Store
from referee.store.mail import set_state
from referee.store.mail_models import OutgoingMail

T0 = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)


@pytest.fixture
def settings(tmp_path: Path, db_url: str) -> Settings:
    """The defaults: ``tick_interval`` 300 s."""
    return Settings(database_url=db_url, referee_address="referee@example.test", gm_address="gm@example.test",
                    gm_secret="s3", transport="maildir", maildir_in=str(tmp_path / "in"),
                    maildir_out=str(tmp_path / "out"), lock_file=str(tmp_path / "tick.lock"))


def daily_game(store: Store) -> None:
    """RR-1: a day for each turn, nobody sends orders (the missing-orders policy plays every turn)."""
    with store.write() as s:
        game = g.create_game(s, course="sprint", code="RR-1", seed="cadence", deadline_seconds=86400,
                             reminder_seconds=0, missing_orders="random", gm_address="gm@example.test", now=T0,
                             actor="test")
        for robot in ("Twonky", "Hammer"):
            g.add_player(s, game, email=f"{robot.lower()}@example.test", robot=robot, now=T0)
        g.start_game(s, game, actor="test", now=T0)


def extended_mails(store: Store) -> list[OutgoingMail]:
    with store.read() as s:
        return [m for m in s.scalars(select(OutgoingMail)) if "deadline extended" in m.subject]


def deadline(store: Store) -> datetime | None:
    with store.read() as s:
        turn = g.open_turn(s, g.get_game(s, "RR-1"))
        return turn.deadline if turn is not None else None


@pytest.mark.parametrize("minutes", [20, 30])
def test_a_cron_every_20_or_30_minutes_is_no_outage_and_turns_resolve_on_time(store, settings, minutes):
    daily_game(store)
    resolved, extended = [], []
    now = T0
    while now < T0 + timedelta(days=4, minutes=minutes):
        now += timedelta(minutes=minutes)
        summary = tick(settings, now=now, store=store)
        assert summary.ok, summary.errors
        resolved += summary.resolved
        extended += summary.extended
    assert extended == [] and extended_mails(store) == []
    assert resolved == [f"RR-1 turn {n}" for n in range(1, 5)]   # each by its deadline plus one tick
    with store.read() as s:
        seen = cadence.gaps(cadence.runs(s))
        assert seen and set(seen) == {minutes * 60.0}


def test_a_day_without_ticks_moves_the_deadline_on_once_and_a_tick_run_again_does_not_move_it_twice(
        store, settings):
    daily_game(store)
    now = T0
    for _ in range(6):   # the referee sees ticks every 30 minutes ...
        now += timedelta(minutes=30)
        tick(settings, now=now, store=store)
    before = deadline(store)
    assert before == T0 + timedelta(days=1)
    since = now
    back = since + timedelta(days=1)   # ... then none for a day, over the turn's deadline
    summary = tick(settings, now=back, store=store)
    assert summary.extended == ["RR-1 turn 1"] and summary.resolved == []
    assert deadline(store) == before + (back - since)
    assert len([m for m in extended_mails(store) if m.recipients == ["gm@example.test"]]) == 1

    # a tick that stopped before it recorded its run: the next one finds the same outage, and moves nothing
    with store.write() as s:
        set_state(s, LAST_RUN, {"at": since.isoformat()}, now=since)
    summary = tick(settings, now=back + timedelta(minutes=5), store=store)
    assert summary.extended == [] and deadline(store) == before + (back - since)
    assert len([m for m in extended_mails(store) if m.recipients == ["gm@example.test"]]) == 1
    with store.read() as s:
        turn = g.open_turn(s, g.get_game(s, "RR-1"))
        assert states.turn_state(s, turn) == "extended"
        assert g.extend_for_outage(s, turn.game, turn, back - since, cadence.outage_key(since), now=back) is False


def test_a_crontab_changed_from_every_5_to_every_30_minutes_moves_a_deadline_on_once_not_at_every_tick(
        store, settings):
    daily_game(store)
    now = T0 + timedelta(hours=22)
    tick(settings, now=now, store=store)   # (a day's first tick: no deadline in the gap before it)
    while now < T0 + timedelta(days=1) - timedelta(minutes=10):   # every 5 minutes, up to just before the deadline
        now += timedelta(minutes=5)
        tick(settings, now=now, store=store)
    resolved, extended = [], []
    for _ in range(12):   # then the operator's new crontab: every 30 minutes
        now += timedelta(minutes=30)
        summary = tick(settings, now=now, store=store)
        resolved += summary.resolved
        extended += summary.extended
    # the first 30-minute gap is six times the cadence seen: an outage, over the deadline, so moved on once;
    # the next gaps are no longer than the one before them: the cron's new cadence, not outages
    assert extended == ["RR-1 turn 1"]
    assert len([m for m in extended_mails(store) if m.recipients == ["gm@example.test"]]) == 1
    assert resolved == ["RR-1 turn 1"]   # at the next tick after its moved deadline


def test_the_cadence_is_the_median_of_the_gaps_seen():
    half_hour = [1800.0] * 5
    assert not cadence.is_outage(timedelta(minutes=30), half_hour, 300)
    assert not cadence.is_outage(timedelta(minutes=80), half_hour, 300)     # late, but not three times the cadence
    assert cadence.is_outage(timedelta(minutes=100), half_hour, 300)
    assert not cadence.is_outage(timedelta(minutes=14), [60.0] * 5, 60)    # never under the floor
    assert cadence.is_outage(timedelta(minutes=16), [], 300)                # nothing seen yet: tick_interval
    assert not cadence.is_outage(timedelta(days=2), [], 86400)              # ticks daily by the settings
    assert cadence.is_outage(timedelta(minutes=30), [300.0] * 10, 300)      # six times the cadence ...
    assert not cadence.is_outage(timedelta(minutes=30), [300.0] * 10 + [1800.0], 300)   # ... not after one as long
    assert cadence.is_outage(timedelta(days=1), [300.0] * 10 + [1800.0], 300)


def test_config_check_warns_when_the_ticks_come_less_often_than_tick_interval(store, settings):
    daily_game(store)
    first = tick_cadence(settings, cadence.observed_gaps(settings))
    assert first.verdict == "ok" and "no ticks recorded yet" in first.detail
    now = T0
    for _ in range(5):
        now += timedelta(minutes=30)
        tick(settings, now=now, store=store)
    found = tick_cadence(settings, cadence.observed_gaps(settings))
    assert found.verdict == "warning" and "every 30 minutes" in found.detail and "tick_interval = 1800" in found.fix
    matching = settings.with_overrides(tick_interval=1800)
    assert tick_cadence(matching, cadence.observed_gaps(matching)).verdict == "ok"
