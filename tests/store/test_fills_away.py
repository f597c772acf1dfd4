"""The autopilot plays for a player who is away or resigned where the game says so (issue 31), whatever the
game's missing-orders policy is for everyone else."""

from __future__ import annotations

from datetime import timedelta

from referee import games as g
from referee.common.config import Settings
from referee.games import fills, own, signup
from referee.store.records import hand_of, locked_of

from .conftest import T0, new_game

SETTINGS = Settings(referee_address="referee@example.test", gm_address="gm@example.test", transport="maildir")


def _filled(store, code: str) -> dict[str, object]:
    with store.read() as s:
        game = g.get_game(s, code)
        turn = next(t for t in game.turns if t.number == 1)
        return {o.player.robot: o for o in g.active_orders(s, turn).values() if o.source == "auto"}


def _autopilot_program(store, code: str, robot: str) -> list[str | None]:
    with store.read() as s:
        game = g.get_game(s, code)
        turn = g.open_turn(s, game)
        program = fills.autopilot_plan(game, turn, robot, hand_of(turn, robot), locked_of(turn, robot)).program
        return [str(c) if c is not None else None for c in program]


def test_a_resigned_player_under_on_resign_autopilot_is_played_by_the_autopilot_not_powered_down(store):
    """Game policy ``power_down``; the GM said ``ON RESIGN AUTOPILOT``; Twonky's player resigns. Nobody sends
    orders: Hammer powers down by the game's policy, Twonky runs the autopilot's program and keeps running."""
    code = new_game(store, ("Twonky", "Hammer"), missing_orders="power_down")
    with store.write() as s:
        game = g.get_game(s, code)
        signup.community_of(s, game).on_resign = "autopilot"
        own.resign(s, g.get_player(s, game, "Twonky"), now=T0)
    planned = _autopilot_program(store, code, "Twonky")
    with store.write() as s:
        turn, _ = g.resolve_with_mails(s, SETTINGS, code, actor="test", now=T0 + timedelta(days=6))
        assert "Hammer" in turn.power_down and "Twonky" not in turn.power_down
    auto = _filled(store, code)
    assert [str(c) if c is not None else None for c in g.cards_of(auto["Twonky"].program)] == planned
    assert auto["Hammer"].program == [None] * 5 and auto["Hammer"].power_down is True


def test_a_resigned_player_under_on_resign_open_is_played_by_the_games_policy(store):
    code = new_game(store, ("Twonky", "Hammer"), missing_orders="power_down")
    with store.write() as s:
        own.resign(s, g.get_player(s, g.get_game(s, code), "Twonky"), now=T0)   # the default: ON RESIGN OPEN
    with store.write() as s:
        turn, _ = g.resolve_with_mails(s, SETTINGS, code, actor="test", now=T0 + timedelta(days=6))
        assert sorted(turn.power_down) == ["Hammer", "Twonky"]


def test_an_absent_player_under_on_absence_autopilot_is_played_by_the_autopilot(store):
    """Game policy ``power_down``, ``ON ABSENCE AUTOPILOT``; Hammer's player is away over the deadline."""
    code = new_game(store, ("Twonky", "Hammer"), missing_orders="power_down")
    with store.write() as s:
        game = g.get_game(s, code)
        signup.community_of(s, game).on_absence = "autopilot"
        deadline = g.open_turn(s, game).deadline
        day = deadline.replace(hour=0, minute=0, second=0, microsecond=0)
        own.set_absence(s, "hammer@example.test", day - timedelta(days=1), day + timedelta(days=1), now=T0)
    planned = _autopilot_program(store, code, "Hammer")
    with store.write() as s:
        turn, _ = g.resolve_with_mails(s, SETTINGS, code, actor="test", now=T0 + timedelta(days=6))
        assert turn.power_down == ["Twonky"]
    auto = _filled(store, code)
    assert [str(c) if c is not None else None for c in g.cards_of(auto["Hammer"].program)] == planned
