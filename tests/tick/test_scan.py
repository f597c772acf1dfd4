"""The tick's scan over every running game finds exactly the turns ``is_due`` finds, and the games
with a player to remind, in a few queries (on SQLite and PostgreSQL)."""

from __future__ import annotations

from datetime import timedelta

from referee import games as g
from referee.cron.due import is_due
from referee.cron.workers import due_turns, reminder_candidates

from .test_workers import T0, make_games


def test_the_tick_scan_finds_the_turns_is_due_finds(store):
    make_games(store, 6, late_every=3)
    with store.write() as s:  # one game paused: nothing of it is due
        g.pause_game(s, "W-1", now=T0 + timedelta(minutes=20))
    for now in (T0 + timedelta(minutes=5), T0 + timedelta(minutes=30), T0 + timedelta(hours=1, minutes=30),
                T0 + timedelta(hours=2, minutes=1)):
        with store.read() as s:
            expected = sorted((game.code, turn.number) for game in g.list_games(s, "running")
                              if (turn := g.open_turn(s, game)) is not None and is_due(s, game, turn, now))
            assert sorted(due_turns(s, now)) == expected
    with store.read() as s:
        assert due_turns(s, T0 + timedelta(minutes=30)) == [("W-2", 1), ("W-4", 1), ("W-5", 1)]
        assert due_turns(s, T0 + timedelta(hours=2)) == [("W-0", 1), ("W-2", 1), ("W-3", 1), ("W-4", 1), ("W-5", 1)]
        # an hour before the deadline the games still waiting for Hammer are reminded, and only those
        assert reminder_candidates(s, T0 + timedelta(hours=1, minutes=5)) == ["W-0", "W-3"]
        assert reminder_candidates(s, T0 + timedelta(minutes=55)) == []
