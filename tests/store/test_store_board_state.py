"""What the board's elements remember (a turret's facing, its cards) is stored with each turn and carried
into the next one; a re-run from the snapshot gives the same state."""

from referee import games as g
from referee.engine.event_codec import contract_events

from .conftest import new_game
from .test_store_games import submit_all


def test_the_board_state_after_a_turn_is_the_next_turns_board_before_and_replays_the_same(store):
    code = new_game(store, ("Twonky", "Hammer"), course="turretrace")
    for _ in range(2):
        submit_all(store, code)
        with store.write() as s:
            g.resolve_turn(s, code)
    with store.read() as s:
        game = g.get_game(s, code)
        first, second, third = (g.get_turn(s, game, n) for n in (1, 2, 3))
        assert first.board_before is None  # nothing remembered before the first turn
        assert len(first.board_after["turret"]["cards"]) == 5
        assert second.board_before == first.board_after
        assert third.board_before == second.board_after
        assert second.board_after["turret"]["cards"] != first.board_after["turret"]["cards"]
        for number in (1, 2):
            _, same = g.replay_turn(s, game, number)
            assert same, f"turn {number} re-ran differently"


def test_rolling_back_forgets_the_state_the_turn_left(store):
    code = new_game(store, ("Twonky",), course="turretrace")
    submit_all(store, code)
    with store.write() as s:
        g.resolve_turn(s, code)
    with store.write() as s:
        turn = g.rollback_to(s, code, 1, actor="test")
        assert turn.board_after is None and turn.board_before is None


def test_radio_cards_are_dealt_round_as_locked_registers_and_played_the_next_turn(store):
    code = new_game(store, ("Twonky", "Hammer"), course="radiorace")
    submit_all(store, code)
    with store.write() as s:
        g.resolve_turn(s, code)
    with store.read() as s:
        game = g.get_game(s, code)
        first, second = g.get_turn(s, game, 1), g.get_turn(s, game, 2)
        radio = {}
        for e in contract_events(first.events):
            if e["text"].startswith("radio card"):
                register = e["text"].split("for register ")[1].split(" ")[0]
                radio.setdefault(e["robot"], {})[register] = e["card"]
        assert radio, "robots starting in the beam get radio cards"
        for name, cards in radio.items():
            alive = next(r for r in second.state_before if r["name"] == name)["at"] is not None
            if alive:
                assert {k: v for k, v in second.locked[name].items() if k in cards} == cards
                assert not set(cards.values()) & set(second.hands[name])
    played = submit_all(store, code)  # first_cards keeps the locked registers' cards in place
    with store.write() as s:
        g.resolve_turn(s, code)
    with store.read() as s:
        second = g.get_turn(s, g.get_game(s, code), 2)
        for name, cards in radio.items():
            if name in played:
                for register, card in cards.items():
                    assert second.played[name][int(register) - 1] == card
