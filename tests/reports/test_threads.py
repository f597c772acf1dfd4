"""A player's mails of one game stay in one conversation: each turn report answers the last one and refers
back to the start mail; the GM's copies start no thread. The threads of every player of a turn are looked up
together, as the referee queues a turn's mails."""

from __future__ import annotations

from referee import games as g
from referee.reports.mails import thread_headers, threads_of

from .helpers import PLAYERS, T0, address, new_game, outbox, parse, play_turns


def test_each_players_third_report_answers_their_second_and_refers_to_their_start_mail(store):
    code = new_game(store)
    play_turns(store, code, 3, start=T0)
    for user in PLAYERS.values():
        start, first, second, third = [parse(m.raw) for m in outbox(store) if m.recipients == [address(user)]]
        assert start["In-Reply-To"] is None
        assert first["In-Reply-To"] == start["Message-ID"] == str(first["References"])
        assert second["In-Reply-To"] == first["Message-ID"]
        assert third["In-Reply-To"] == second["Message-ID"]
        assert str(third["References"]).split() == [start["Message-ID"], second["Message-ID"]]
    for row in outbox(store, kind="gm_copy"):
        assert parse(row.raw)["In-Reply-To"] is None


def test_the_threads_of_all_players_looked_up_at_once_are_each_players_own(store):
    code = new_game(store)
    play_turns(store, code, 2, start=T0)
    with store.read() as s:
        game = g.get_game(s, code)
        together = threads_of(s, game, game.players, 3)
        assert set(together) == {p.id for p in game.players}
        for player in game.players:
            assert together[player.id] == thread_headers(s, game, player, 3)
            assert thread_headers(s, game, player, 1)["In-Reply-To"] == together[player.id]["References"].split()[0]
        assert threads_of(s, game, [], 3) == {}
