"""The game master's commands: each acknowledged, audited, and announced when it changes the game.

Rulings cited (docs/rulings.md): 18.3, 18.4, 18.p1.
"""

from __future__ import annotations

import email
from datetime import timedelta
from email import policy

from sqlalchemy import select

from referee import games as g
from referee.gm.language import parse_lines
from referee.store.mail_models import OutgoingMail
from referee.store.models import AuditEntry, Order

from .conftest import GM, SECRET, T0


def outbox(gm, kind=None):
    with gm.store.read() as s:
        q = select(OutgoingMail).order_by(OutgoingMail.id)
        if kind:
            q = q.where(OutgoingMail.kind == kind)
        return list(s.scalars(q))


def state(gm, robot):
    with gm.store.read() as s:
        game = g.get_game(s, gm.game)
        turn = g.open_turn(s, game)
        return {r.name: r for r in g.robots_of(turn)}[robot], turn


def test_a_game_set_up_by_commands_starts_and_deals(running):
    with running.store.read() as s:
        game = g.get_game(s, "RR-1")
        assert game.status == "running" and game.turn_number == 1
        assert game.gm_address == GM
    starts = outbox(running, "turn_start")
    assert sorted(m.recipients[0] for m in starts) == ["hammer@example.test", "twonky@example.test",
                                                       "zoom@example.test"]


def test_commands_by_mail_need_the_gm_address_and_the_secret(gm):
    refused = gm.mail("BEGIN GM key wrong\nNEWGAME RR-5 COURSE sprint\nEND\n")
    assert not refused.accepted and "key" in refused.reason and refused.reply
    stranger = gm.mail(f"BEGIN GM key {SECRET}\nNEWGAME RR-5 COURSE sprint\nEND\n", sender="eve@example.test")
    assert not stranger.accepted and stranger.reply is None  # an impostor gets no answer
    with gm.store.read() as s:
        assert g.list_games(s) == []
    ok = gm.mail(f"> quoted\nBEGIN GM key {SECRET}\nNEWGAME RR-5 COURSE sprint\nEND\n")
    assert ok.accepted and "game RR-5 created" in ok.reply


def test_pause_stops_the_clock_and_resume_moves_the_deadline_on(running):
    _, turn = state(running, "Twonky")
    deadline = turn.deadline
    running("PAUSE")
    running.later(hours=10)
    running("RESUME")
    _, turn = state(running, "Twonky")
    assert turn.deadline == deadline + timedelta(hours=10)
    subjects = [m.subject for m in outbox(running, "announcement")]
    assert subjects.count("RR-1: game paused") == 3 and subjects.count("RR-1: game resumed") == 3


def test_set_deadline_and_extend(running):
    running("SET DEADLINE 2026-06-10 18:00")
    _, turn = state(running, "Twonky")
    assert turn.deadline.isoformat() == "2026-06-10T18:00:00+00:00"
    running("EXTEND 2d")
    _, turn = state(running, "Twonky")
    assert turn.deadline.isoformat() == "2026-06-12T18:00:00+00:00"
    running("SET DEADLINE +1d")
    _, turn = state(running, "Twonky")
    assert turn.deadline == T0 + timedelta(days=1)


def test_set_corrects_a_robot_and_tells_everyone(running):
    running("SET Twonky AT r8c6 FACING E DAMAGE 5 LIVES 2 FLAGS 1 ARCHIVE r8c6")
    robot, turn = state(running, "Twonky")
    assert (robot.pos, robot.facing, robot.damage, robot.lives, robot.flags, robot.archive) == ((8, 6), 1, 5, 2, 1,
                                                                                               (8, 6))
    assert len(turn.hands["Twonky"]) == 4 and "5" in turn.locked["Twonky"]
    with running.store.read() as s:
        assert s.scalars(select(AuditEntry).where(AuditEntry.action == "turn.correct_state")).first() is not None
    assert [m.subject for m in outbox(running, "announcement")].count("RR-1: Twonky corrected") == 3


def test_orders_entered_by_the_gm_count_and_process_resolves_the_rest_by_policy(running):
    running("ORDERS Hammer 1, 2, 3, 4, 5")
    with running.store.read() as s:
        order = s.scalars(select(Order).where(Order.source == "gm")).one()
        assert order.player.robot == "Hammer"
    ctx = running("PROCESS")
    assert "filled by the autopilot policy: Twonky, Zoom" in ctx.lines[0]
    with running.store.read() as s:
        game = g.get_game(s, "RR-1")
        assert game.turn_number == 2
    assert len(outbox(running, "turn_report")) == 3


def test_hold_for_review_keeps_results_until_published(running):
    running("HOLD FOR REVIEW ON", "PROCESS")
    held = [m for m in outbox(running, "turn_report")]
    assert held and all(m.status == "held" for m in held)
    assert [m.status for m in outbox(running, "gm_copy")][-1] == "pending"
    running("PUBLISH")
    assert all(m.status == "pending" for m in outbox(running, "turn_report"))


def test_preview_shows_the_gm_a_turn_and_keeps_nothing(running):
    ctx = running("PREVIEW")
    assert "nothing was kept" in ctx.lines[0]
    with running.store.read() as s:
        assert g.get_game(s, "RR-1").turn_number == 1
        assert g.open_turn(s, g.get_game(s, "RR-1")).number == 1
    previews = [m for m in outbox(running, "gm") if m.subject.startswith("[PREVIEW")]
    assert len(previews) == 1 and previews[0].recipients == [GM]
    assert outbox(running, "turn_report") == []


def test_rerun_with_a_corrected_program_sends_a_correction(running):
    running("PROCESS")
    with running.store.read() as s:
        turn1 = g.get_turn(s, g.get_game(s, "RR-1"), 1)
        hand = turn1.hands["Twonky"]
    new_program = ", ".join(reversed(hand[:5]))
    ctx = running(f"RERUN 1 Twonky: {new_program}")
    assert "re-run" in ctx.lines[0]
    with running.store.read() as s:
        turn1 = g.get_turn(s, g.get_game(s, "RR-1"), 1)
        assert turn1.programs["Twonky"] == list(reversed(hand[:5]))
    corrections = [m for m in outbox(running, "turn_report") if m.subject.startswith("Correction")]
    assert sorted(m.recipients[0] for m in corrections) == ["hammer@example.test", "twonky@example.test",
                                                            "zoom@example.test"]
    with running.store.read() as s:
        assert s.scalars(select(AuditEntry).where(AuditEntry.action == "turn.rerun")).first() is not None


def test_rollback_reopens_a_turn(running):
    running("PROCESS")
    running.later(hours=1)
    running("PROCESS")
    running("ROLLBACK 1")
    with running.store.read() as s:
        game = g.get_game(s, "RR-1")
        assert game.turn_number == 1 and g.open_turn(s, game).number == 1


def test_eject_and_replace(running):
    running("REPLACE Zoom WITH newzoom@example.test", "EJECT Hammer")
    with running.store.read() as s:
        players = {p.robot: p for p in g.get_game(s, "RR-1").players}
        assert players["Zoom"].email == "newzoom@example.test"
        assert players["Hammer"].status == "ejected"
    welcome = [m for m in outbox(running, "notice") if m.recipients == ["newzoom@example.test"]]
    assert welcome and "BEGIN RR-1 Zoom turn 1" in welcome[0].raw.decode()


def test_a_failing_command_does_not_stop_the_others(running):
    ctx = running("PUBLISH", "PAUSE", ok=False)
    assert ctx.failures == 1
    assert "NOT DONE" in ctx.lines[0] and "done: paused" in ctx.lines[1]


def test_end_game_finishes_it_and_says_so(running):
    running("END GAME")
    with running.store.read() as s:
        assert g.get_game(s, "RR-1").status == "finished"
    assert [m.subject for m in outbox(running, "announcement")].count("RR-1: game over") == 0
    # one mail each: the final standings, to the players and the GM
    final = outbox(running, "game_over")
    assert sorted(m.recipients[0] for m in final) == sorted([f"{r}@example.test" for r in ("twonky", "hammer", "zoom")]
                                                            + [GM])
    assert all(b"Final standings" in m.raw and b"ended without a winner" in m.raw for m in final)


def test_end_game_on_a_forming_game_sends_each_seated_player_one_short_mail(gm):
    gm("NEWGAME RR-1 COURSE sprint", "ADD PLAYER twonky@example.test Twonky", "ADD PLAYER hammer@example.test Hammer")
    ctx = gm("END GAME")
    assert "ended before it started" in ctx.lines[0]
    with gm.store.read() as s:
        mails = [m for m in s.query(OutgoingMail) if m.recipients != [GM]]
    assert sorted(m.recipients[0] for m in mails) == ["hammer@example.test", "twonky@example.test"]
    assert {m.subject for m in mails} == {"RR-1: game called off"}


def test_one_gm_mail_with_set_and_orders_gives_a_player_one_notice(running):
    with running.store.read() as s:
        hand = g.open_turn(s, g.get_game(s, "RR-1")).hands["Twonky"]
    running("SET Twonky DAMAGE 2", f"ORDERS Twonky {', '.join(hand[:5])}")
    with running.store.read() as s:
        to_twonky = [m for m in s.query(OutgoingMail) if m.recipients == ["twonky@example.test"]
                     and m.kind == "announcement"]
    assert len(to_twonky) == 1


def test_what_newgame_leaves_out_comes_from_the_settings(gm):
    gm.settings = gm.settings.with_overrides(default_course="riverside", default_deadline="3d",
                                             default_reminder="6h", default_missing_orders="power_down")
    gm("NEWGAME RR-4")
    with gm.store.read() as s:
        game = g.get_game(s, "RR-4")
        assert (game.course, game.deadline_seconds, game.reminder_seconds, game.missing_orders) == (
            "riverside", 3 * 86400, 6 * 3600, "power_down")


# -- deadlines on a fixed clock, time zones, the settle delay (issue 18) -----------------------------
def test_deadline_3d_at_21_00_puts_every_deadline_at_21_utc_three_days_on(gm):
    gm("NEWGAME RR-8 COURSE sprint DEADLINE 3d AT 21:00", "ADD PLAYER twonky@example.test Twonky",
       "ADD PLAYER hammer@example.test Hammer", "START")
    with gm.store.read() as s:
        game = g.get_game(s, "RR-8")
        turn = g.open_turn(s, game)
        assert game.deadline_time == "21:00"
        assert turn.deadline == (T0 + timedelta(days=3)).replace(hour=21, minute=0)
    gm.later(hours=5, minutes=17)
    gm("PROCESS")
    with gm.store.read() as s:
        turn = g.open_turn(s, g.get_game(s, "RR-8"))
        assert turn.number == 2 and (turn.deadline.hour, turn.deadline.minute) == (21, 0)
        assert turn.deadline.date() == (gm.now + timedelta(days=3)).date()


def test_a_new_game_waits_half_an_hour_after_the_last_program_unless_told(gm):
    gm("NEWGAME RR-8 COURSE sprint", "NEWGAME RR-9 COURSE sprint SETTLE 0")
    with gm.store.read() as s:
        assert g.get_game(s, "RR-8").settle_seconds == 30 * 60
        assert g.get_game(s, "RR-9").settle_seconds == 0


def test_timezone_shows_a_players_deadlines_in_their_zone(running):
    ctx = running("TIMEZONE Twonky Europe/Berlin")
    assert "Europe/Berlin" in ctx.lines[-1]
    with running.store.read() as s:
        assert g.get_player(s, g.get_game(s, "RR-1"), "Twonky").timezone == "Europe/Berlin"
    _, errors = parse_lines([(1, "TIMEZONE Twonky Mars/Olympus")])
    assert errors and "unknown time zone 'Mars/Olympus'" in errors[0]


def test_the_gm_and_the_players_read_a_new_deadline_in_the_same_words(running):
    """SET DEADLINE on Monday 1 June at 12:00 UTC, for Wednesday 10 June at 18:00: the GM's answer and the
    players' announcement both write weekday, date, UTC and the time left, as the turn mails do."""
    ctx = running("SET DEADLINE 2026-06-10 18:00")
    words = "Wed 10 Jun 2026, 18:00 UTC (in 9 days 6 hours)"
    assert f"done: deadline of turn 1: {words}" in ctx.lines[-1]
    [announced, *_] = [m for m in outbox(running, "announcement") if "new deadline" in m.subject]
    body = email.message_from_bytes(announced.raw, policy=policy.default).get_body(("plain",)).get_content()
    assert words in " ".join(body.split()), body


def test_start_and_status_answer_with_the_players_deadline_words(gm):
    ctx = gm("NEWGAME RR-3 COURSE sprint DEADLINE 36h", "ADD PLAYER a@example.test Twonky",
             "ADD PLAYER b@example.test Hammer", "START")
    assert ctx.lines[-1].endswith("deadline Wed 3 Jun 2026, 00:00 UTC (in 1 day 12 hours)"), ctx.lines[-1]
    gm.later(hours=30)
    status = gm("STATUS").lines[-1]
    assert "deadline Wed 3 Jun 2026, 00:00 UTC (in 6 hours)," in status, status
