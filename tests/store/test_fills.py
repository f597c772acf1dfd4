"""The missing-orders strategies: one registry, one vocabulary for the games, the CLI and the help texts.

Rulings cited (docs/rulings.md): 18.6, 20.a.
"""

from __future__ import annotations

import pytest

from referee import games as g
from referee.games import fills
from referee.store.errors import InvalidValue
from referee.store.models import MISSING_ORDERS_POLICIES

from .conftest import T0, first_cards, new_game


def test_an_unknown_strategy_is_refused_naming_the_known_ones():
    with pytest.raises(InvalidValue) as refused:
        fills.strategy("lazy")
    message = str(refused.value)
    assert "'lazy'" in message
    for name in ("autopilot", "random", "power_down", "repeat_locked", "idle"):
        assert name in message


def test_a_game_may_choose_every_policy_the_database_allows_and_no_other():
    assert fills.names(game_policy=True) == list(MISSING_ORDERS_POLICIES)
    assert "idle" in fills.names() and "idle" not in fills.names(game_policy=True)


def test_a_game_with_a_policy_it_cannot_have_is_refused(store):
    with pytest.raises(InvalidValue, match="missing-orders policy must be one of random, power_down"):
        new_game(store, missing_orders="idle")


def test_a_strategy_that_works_on_a_game_asks_for_one():
    with pytest.raises(InvalidValue, match="works on a game"):
        fills.filling("autopilot")
    assert "autopilot" not in fills.FILLS and "random" in fills.FILLS


def test_power_down_plays_the_fused_registers_and_announces_a_power_down(store):
    """Twonky's player sends nothing; the turn is resolved with ``power_down``: Twonky runs no cards
    (it has no fused registers) and its filled orders announce a power down for the next turn."""
    code = new_game(store, ("Twonky", "Hammer"))
    with store.write() as s:
        game = g.get_game(s, code)
        turn = g.resolve_turn(s, game, fill=fills.filling("power_down", game), actor="test", now=T0)
        auto = {o.player.robot: o for o in g.active_orders(s, turn).values() if o.source == "auto"}
        assert sorted(auto) == ["Hammer", "Twonky"]
        assert auto["Twonky"].program == [None] * 5 and auto["Twonky"].power_down is True
        assert "Twonky" in turn.power_down


def test_idle_plays_the_fused_registers_without_a_power_down(store):
    code = new_game(store, ("Twonky", "Hammer"))
    with store.write() as s:
        game = g.get_game(s, code)
        turn = g.resolve_turn(s, game, fill=fills.filling("idle", game), actor="test", now=T0)
        assert turn.power_down == []
        assert all(o.program == [None] * 5 for o in g.active_orders(s, turn).values())


def test_the_cli_offers_the_registry_names(cli):
    help_text = cli("game", "resolve", "--help").output
    for name in fills.names():
        assert name in help_text
    refused = cli("game", "resolve", "RR-1", "--fill", "lazy", ok=False)
    assert refused.exit_code != 0 and "lazy" in refused.output


def test_the_operator_resolves_a_stuck_turn_with_the_autopilot(store, cli):
    """Hammer's player sent a program, Twonky's did not: ``referee game resolve --fill autopilot`` plays
    five cards of Twonky's own hand for it, recorded as filled orders."""
    code = new_game(store, ("Twonky", "Hammer"))
    cli("game", "program", code, "Hammer", ", ".join(first_cards(store, code, "Hammer")))
    with store.read() as s:
        hand = set(g.open_turn(s, g.get_game(s, code)).hands["Twonky"])
    done = cli("game", "resolve", code, "--fill", "autopilot")
    assert f"{code}: turn 1 resolved" in done.output
    with store.read() as s:
        turn = g.get_turn(s, g.get_game(s, code), 1)
        auto = [o for o in g.active_orders(s, turn).values() if o.source == "auto"]
        assert [o.player.robot for o in auto] == ["Twonky"]
        assert len(auto[0].program) == 5 and set(auto[0].program) <= hand


def test_every_policy_a_game_may_have_is_worded_for_the_players():
    """The results mail marks a filled card and says what was played; the reminder says what will be."""
    from pathlib import Path

    from referee.reports.fills import MARKS, PLAYED
    from referee.reports.mails import POLICY_WORDS

    reminder = (Path(__file__).resolve().parents[2] / "templates" / "reminder.txt").read_text()
    for name in fills.names(game_policy=True):
        assert name in MARKS and name in PLAYED and name in POLICY_WORDS
        assert f'"{name}":' in reminder
