"""The game's option deck in the store: shuffled from the game's seed when the game starts, carried from
turn to turn as each turn leaves it, and replayed exactly."""

from __future__ import annotations

from referee import games as g
from referee.engine import Rules
from referee.engine.option_deck import cards_in_play, new_option_deck

from .conftest import T0, new_game
from .test_store_games import submit_all

CLASSIC = cards_in_play(Rules())


def test_the_first_turn_holds_the_games_shuffled_deck(store):
    code = new_game(store)
    with store.read() as s:
        game = g.get_game(s, code)
        turn = g.open_turn(s, game)
        assert turn is not None
        assert turn.option_deck == new_option_deck(game.seed) and sorted(turn.option_deck) == sorted(CLASSIC)


def test_a_card_given_to_a_robot_leaves_the_deck_and_every_card_is_held_or_in_the_deck_after_the_turn(store):
    code = new_game(store)
    with store.write() as s:  # as a GM's SET would: Twonky now holds Brakes and Ramming Gear
        turn = g.open_turn(s, g.get_game(s, code))
        assert turn is not None
        state = [dict(r) for r in turn.state_before]
        state[0]["options"] = ["Brakes", "Ramming Gear"]
        turn.state_before = state
    submit_all(store, code)
    with store.write() as s:
        g.resolve_turn(s, code, now=T0)
    with store.read() as s:
        game = g.get_game(s, code)
        second = g.open_turn(s, game)
        assert second is not None
        held = [name for r in g.robots_of(second) for name in r.options]
        assert sorted(second.option_deck + held) == sorted(CLASSIC)
        assert "Brakes" not in second.option_deck[:-2]  # held, or lost under the deck this turn
        result, same = g.replay_turn(s, game, 1)
        assert same and result.option_deck == second.option_deck
