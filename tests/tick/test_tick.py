"""The cron tick: when a turn is due, reminders, late players, outages, and one tick at a time."""

from __future__ import annotations

import email
from datetime import UTC, datetime, timedelta
from email import policy
from pathlib import Path

import pytest
from sqlalchemy import select

from referee import games as g
from referee.common.config import Settings
from referee.cron.tick import LAST_RUN, lock_path, tick
from referee.store import Store
from referee.store.mail import set_state
from referee.store.mail_models import OutgoingMail

T0 = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)
ROBOTS = ("Twonky", "Hammer", "Zoom")


@pytest.fixture
def settings(tmp_path: Path, db_url: str) -> Settings:
    return Settings(database_url=db_url, referee_address="referee@example.test", gm_address="gm@example.test",
                    gm_secret="s3", transport="maildir", maildir_in=str(tmp_path / "in"),
                    maildir_out=str(tmp_path / "out"), lock_file=str(tmp_path / "tick.lock"), tick_interval=300)


def new_game(store: Store, **kwargs: object) -> str:
    with store.write() as s:
        game = g.create_game(s, course="sprint", code="RR-1", seed="tick", deadline_seconds=2 * 86400,
                             reminder_seconds=86400, gm_address="gm@example.test", now=T0, actor="test",
                             **{"settle_seconds": 0, **kwargs})  # type: ignore[arg-type]
        for robot in ROBOTS:
            g.add_player(s, game, email=f"{robot.lower()}@example.test", robot=robot, now=T0)
        g.start_game(s, game, actor="test", now=T0)
    return "RR-1"


def program(store: Store, robot: str, at: datetime) -> None:
    with store.write() as s:
        game = g.get_game(s, "RR-1")
        turn = g.open_turn(s, game)
        locked = turn.locked.get(robot, {})
        hand = list(turn.hands[robot])
        cards = [locked.get(str(r)) or hand.pop(0) for r in range(1, 6)]
        g.submit_program(s, game, robot, cards, now=at)


def turn_number(store: Store) -> int:
    with store.read() as s:
        return g.get_game(s, "RR-1").turn_number


def mails(store: Store, kind: str) -> list[OutgoingMail]:
    with store.read() as s:
        return list(s.scalars(select(OutgoingMail).where(OutgoingMail.kind == kind).order_by(OutgoingMail.id)))


def test_a_turn_waits_until_every_live_player_has_orders(store, settings):
    new_game(store)
    program(store, "Twonky", T0 + timedelta(hours=1))
    program(store, "Hammer", T0 + timedelta(hours=1))
    assert tick(settings, now=T0 + timedelta(hours=2), store=store).resolved == []
    program(store, "Zoom", T0 + timedelta(hours=3))
    summary = tick(settings, now=T0 + timedelta(hours=3), store=store)
    assert summary.resolved == ["RR-1 turn 1"] and summary.ok
    assert turn_number(store) == 2
    assert len(mails(store, "turn_report")) == 3


def test_the_settle_delay_lets_players_amend(store, settings):
    new_game(store, settle_seconds=1800)
    for robot in ROBOTS:
        program(store, robot, T0 + timedelta(hours=1))
    assert tick(settings, now=T0 + timedelta(hours=1, minutes=10), store=store).resolved == []
    assert tick(settings, now=T0 + timedelta(hours=1, minutes=31), store=store).resolved == ["RR-1 turn 1"]


def test_a_reminder_goes_once_to_the_missing_players_a_day_before_the_deadline(store, settings):
    new_game(store)
    program(store, "Twonky", T0 + timedelta(hours=1))
    assert tick(settings, now=T0 + timedelta(hours=20), store=store).reminders == 0
    assert tick(settings, now=T0 + timedelta(hours=25), store=store).reminders == 2
    assert tick(settings, now=T0 + timedelta(hours=26), store=store).reminders == 0
    assert sorted(m.recipients[0] for m in mails(store, "reminder")) == ["hammer@example.test", "zoom@example.test"]


def test_at_the_deadline_the_turn_is_resolved_and_everyone_learns_who_was_late_in_the_results(store, settings):
    new_game(store)
    program(store, "Twonky", T0 + timedelta(hours=1))
    summary = tick(settings, now=T0 + timedelta(days=2, minutes=1), store=store)
    assert summary.resolved == ["RR-1 turn 1"]
    results = mails(store, "turn_report")
    assert len(results) == 3
    for mail in results:
        text = " ".join(email.message_from_bytes(mail.raw, policy=policy.default)
                        .get_body(("plain",)).get_content().split())
        assert "Late players: no orders came from Hammer, Zoom for turn 1" in text
    assert not [m for m in mails(store, "announcement") if "late players" in m.subject]  # no mail of its own
    with store.read() as s:
        players = {p.robot: p for p in g.get_game(s, "RR-1").players}
        assert players["Hammer"].missed_turns == 1 and players["Twonky"].missed_turns == 0


def test_after_three_missed_turns_the_gm_hears_the_seat_is_open(store, settings):
    new_game(store)
    daily = settings.with_overrides(tick_interval=86400)  # ticks two days apart are no outage here
    now = T0
    for _ in range(3):
        now += timedelta(days=2, minutes=5)
        tick(daily, now=now, store=store)
    assert turn_number(store) == 4
    seats = [m for m in mails(store, "gm") if "seat is open" in m.subject]
    assert {m.subject for m in seats} == {"[GM] RR-1: Twonky's seat is open", "[GM] RR-1: Hammer's seat is open",
                                          "[GM] RR-1: Zoom's seat is open"}


def test_deadlines_that_fell_in_an_outage_are_extended_not_enforced(store, settings):
    new_game(store)
    with store.write() as s:
        set_state(s, LAST_RUN, {"at": (T0 + timedelta(hours=12)).isoformat()}, now=T0)
    back = T0 + timedelta(days=2, hours=6)   # the referee was down from 12:00 the first day
    summary = tick(settings, now=back, store=store)
    assert summary.resolved == [] and summary.extended == ["RR-1 turn 1"]
    with store.read() as s:
        turn = g.open_turn(s, g.get_game(s, "RR-1"))
        assert turn.deadline == T0 + timedelta(days=2) + (back - (T0 + timedelta(hours=12)))
    assert any("deadline extended" in m.subject for m in mails(store, "gm"))


def test_a_paused_game_is_not_resolved(store, settings):
    new_game(store)
    with store.write() as s:
        g.pause_game(s, "RR-1", now=T0)
    assert tick(settings, now=T0 + timedelta(days=5), store=store).resolved == []


def test_a_second_tick_while_one_runs_does_nothing(store, settings):
    from filelock import FileLock

    new_game(store)
    with FileLock(str(lock_path(settings))):
        summary = tick(settings, now=T0 + timedelta(days=3), store=store)
    assert summary.skipped == "another tick is running"
    assert turn_number(store) == 1


def test_the_outbox_goes_out_through_the_configured_transport(store, settings, tmp_path):
    new_game(store)
    for robot in ROBOTS:
        program(store, robot, T0 + timedelta(minutes=1))
    summary = tick(settings, now=T0 + timedelta(minutes=2), store=store)
    assert summary.sent == 4  # the three turn reports and the GM's copy
    assert len(list((tmp_path / "out" / "new").iterdir())) == 4


def test_a_standing_reentry_facing_holds_on_a_turn_filled_at_the_deadline(store, settings):
    new_game(store)
    with store.write() as s:
        g.set_standing_orders(s, "RR-1", "Twonky", {"reenter_facing": 1})
    tick(settings, now=T0 + timedelta(days=2, minutes=1), store=store)
    with store.read() as s:
        turn1 = g.get_turn(s, g.get_game(s, "RR-1"), 1)
        assert turn1.reentry == {"Twonky": "E"}


def test_a_reminder_can_be_answered_with_a_plain_reply(store, settings):
    new_game(store)
    tick(settings, now=T0 + timedelta(hours=25), store=store)
    reminder = mails(store, "reminder")[0]
    assert b"Reply-To: referee+" in reminder.raw


def test_a_reminder_carries_the_numbered_hand_the_form_and_the_deadline_with_its_weekday(store, settings):
    new_game(store)
    assert tick(settings, now=T0 + timedelta(hours=25), store=store).reminders == 3
    with store.read() as s:
        game = g.get_game(s, "RR-1")
        turn = g.open_turn(s, game)
        hammer = g.get_player(s, game, "Hammer")
        hand, secret = list(turn.hands["Hammer"]), hammer.secret
    [mail] = [m for m in mails(store, "reminder") if m.recipients == ["hammer@example.test"]]
    text = email.message_from_bytes(mail.raw, policy=policy.default).get_body(("plain",)).get_content()
    text = text.replace("\r\n", "\n")
    assert "The deadline is Wed 3 Jun 2026, 12:00 UTC (in 23 hours)" in text  # T0 is Monday 1 June, noon
    assert "reply to this mail and write your 5 cards at the top" in text
    for number, card in enumerate(hand, start=1):
        assert f"  {number:2d}  {card}\n" in text
    assert f"BEGIN RR-1 Hammer turn 1 key {secret}" in text and "\nEND\n" in text


def test_tick_builds_the_archive_after_each_resolved_turn_and_the_results_mail_links_to_its_page(store, settings,
                                                                                                  tmp_path):
    served = settings.with_overrides(archive_url="https://rr.example.test/games/", archive_dir=str(tmp_path / "site"))
    new_game(store)
    tick(served, now=T0 + timedelta(minutes=5), store=store)
    site = tmp_path / "site"
    assert (site / "index.html").is_file() and not (site / "rr-1" / "turn-1.html").exists()
    for robot in ROBOTS:
        program(store, robot, T0 + timedelta(hours=1))
    assert tick(served, now=T0 + timedelta(hours=1, minutes=5), store=store).resolved == ["RR-1 turn 1"]
    page = site / "rr-1" / "turn-1.html"
    assert page.is_file() and "Resolved Mon 1 Jun 2026, 13:05 UTC." in page.read_text()
    assert "Standings" in (site / "rr-1" / "index.html").read_text()
    stamp = page.stat().st_mtime_ns
    tick(served, now=T0 + timedelta(hours=1, minutes=10), store=store)  # nothing new: nothing rebuilt
    assert page.stat().st_mtime_ns == stamp
    for mail in mails(store, "turn_report"):
        text = email.message_from_bytes(mail.raw, policy=policy.default).get_body(("plain",)).get_content()
        assert "This turn on the web: https://rr.example.test/games/rr-1/turn-1.html" in text
