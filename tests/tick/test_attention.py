"""Each game knows when it next needs the tick (``games.attention_at``): its reminder time while a player owes
a program, then its deadline, or the end of the settle delay once every program is in. Whatever changes those
(orders, a GM's SET DEADLINE, PAUSE and RESUME, an absence) moves it, and the tick reads no other game."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from referee import games as g
from referee.common.config import Settings
from referee.cron.tick import tick
from referee.cron.workers import open_turns
from referee.games.own import resign, set_absence
from referee.games.signup import community_of
from referee.store.attention import attention_at, due_games

T0 = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)
HOUR = timedelta(hours=1)


def new_game(store, code="A-1", *, settle_minutes=30):
    """Twonky and Hammer on sprint: a two-hour deadline, reminded an hour before it."""
    with store.write() as s:
        game = g.create_game(s, course="sprint", code=code, seed=code, deadline_seconds=2 * 3600,
                             reminder_seconds=3600, settle_seconds=settle_minutes * 60, gm_address="gm@example.test",
                             now=T0)
        for robot in ("Twonky", "Hammer"):
            g.add_player(s, game, email=f"{robot.lower()}.{code.lower()}@example.test", robot=robot, now=T0)
        g.start_game(s, game, now=T0)


def attention(store, code="A-1"):
    with store.read() as s:
        game = g.get_game(s, code)
        stored = game.attention_at
        assert stored == attention_at(s, game)   # what is stored is what the game's rows say
        return stored


def send(store, robot, at, code="A-1"):
    with store.write() as s:
        game = g.get_game(s, code)
        g.submit_program(s, game, robot, g.open_turn(s, game).hands[robot][:5], now=at)


def settings_for(db_url, tmp_path):
    return Settings(database_url=db_url, referee_address="referee@example.test", gm_address="gm@example.test",
                    gm_secret="k", transport="maildir", maildir_in=str(tmp_path / "in"),
                    maildir_out=str(tmp_path / "out"), lock_file=str(tmp_path / "tick.lock"))


def test_a_turn_needs_the_tick_at_its_reminder_then_its_deadline_or_once_settled(store, db_url, tmp_path):
    new_game(store)
    assert attention(store) == T0 + HOUR                       # the reminder time
    send(store, "Twonky", T0 + timedelta(minutes=10))
    assert attention(store) == T0 + HOUR                       # Hammer still owes a program
    summary = tick(settings_for(db_url, tmp_path), now=T0 + HOUR + timedelta(minutes=5), store=store)
    assert summary.reminders == 1 and summary.ok
    assert attention(store) == T0 + 2 * HOUR                   # reminded: the deadline is next
    send(store, "Hammer", T0 + HOUR + timedelta(minutes=10))
    assert attention(store) == T0 + HOUR + timedelta(minutes=40)   # every program in: half an hour to amend
    summary = tick(settings_for(db_url, tmp_path), now=T0 + HOUR + timedelta(minutes=40), store=store)
    assert summary.resolved == ["A-1 turn 1"]
    assert attention(store) == T0 + HOUR + timedelta(minutes=40) + HOUR   # turn 2: its own reminder time


def test_the_gm_moving_the_deadline_pausing_and_resuming_moves_it(store):
    new_game(store)
    with store.write() as s:
        g.set_deadline(s, "A-1", T0 + 5 * HOUR, now=T0 + timedelta(minutes=1))
    assert attention(store) == T0 + 4 * HOUR
    with store.write() as s:
        g.set_deadline(s, "A-1", None, now=T0 + timedelta(minutes=2))
    assert attention(store) is None                            # no deadline: only the last program decides
    with store.write() as s:
        g.set_deadline(s, "A-1", T0 + 3 * HOUR, now=T0 + timedelta(minutes=3))
        g.pause_game(s, "A-1", now=T0 + HOUR)
    assert attention(store) is None                            # a paused game needs no tick
    with store.write() as s:
        g.resume_game(s, "A-1", now=T0 + 2 * HOUR)
    assert attention(store) == T0 + 3 * HOUR                   # deadline moved on by the hour paused, less an hour


def test_an_absent_player_the_turn_does_not_wait_for_counts_as_in(store):
    new_game(store)
    with store.write() as s:
        community_of(s, g.get_game(s, "A-1")).on_absence = "autopilot"
    send(store, "Twonky", T0 + timedelta(minutes=10))
    assert attention(store) == T0 + HOUR
    with store.write() as s:   # Hammer away today and tomorrow: the deadline falls in the absence
        set_absence(s, "hammer.a-1@example.test", datetime(2026, 6, 1, tzinfo=UTC), datetime(2026, 6, 2, tzinfo=UTC),
                    now=T0 + timedelta(minutes=20))
    assert attention(store) == T0 + timedelta(minutes=40)      # Twonky's program, settled
    with store.write() as s:
        set_absence(s, "hammer.a-1@example.test", None, None, now=T0 + timedelta(minutes=25))
    assert attention(store) == T0 + HOUR                       # back: the turn waits for Hammer again


def test_an_idle_tick_reads_no_game_whose_time_has_not_come(store, db_url, tmp_path):
    for k in range(5):
        new_game(store, f"I-{k}")
    send(store, "Twonky", T0 + timedelta(minutes=10), code="I-3")
    send(store, "Hammer", T0 + timedelta(minutes=10), code="I-3")
    now = T0 + timedelta(minutes=20)
    with store.read() as s:
        assert due_games(s, now) == [] and open_turns(s, now) == []
    summary = tick(settings_for(db_url, tmp_path), now=now, store=store)
    assert summary.ok and not summary.resolved and not summary.reminders
    with store.read() as s:   # at the end of I-3's settle delay, I-3 alone
        assert [t.code for t in open_turns(s, T0 + timedelta(minutes=40))] == ["I-3"]


def test_the_scan_of_several_due_games_sees_who_each_turn_waits_for_as_each_game_does(store):
    """The scan reads the due games together (their turns, orders, resigned and absent players at once): in B-1
    Hammer resigned, in B-2 he is away while the game lets the autopilot play for him, in B-3 he owes his program;
    Twonky sent hers everywhere."""
    for code in ("B-1", "B-2", "B-3"):
        new_game(store, code)
        send(store, "Twonky", T0 + timedelta(minutes=10), code)
    with store.write() as s:
        resign(s, g.get_player(s, g.get_game(s, "B-1"), "Hammer"), now=T0 + timedelta(minutes=15))
        community_of(s, g.get_game(s, "B-2")).on_absence = "autopilot"
    with store.write() as s:
        set_absence(s, "hammer.b-2@example.test", datetime(2026, 6, 1, tzinfo=UTC), datetime(2026, 6, 2, tzinfo=UTC),
                    now=T0 + timedelta(minutes=20))
    later = T0 + timedelta(days=1)
    with store.read() as s:
        scanned = {t.code: t.waiting for t in open_turns(s, later)}
        one_by_one = {code: frozenset(p.id for p in g.waiting_for(s, g.get_game(s, code))) for code in scanned}
        hammer = g.get_player(s, g.get_game(s, "B-3"), "Hammer").id
    assert scanned == one_by_one == {"B-1": frozenset(), "B-2": frozenset(), "B-3": frozenset({hammer})}
