"""Board state: what elements remember between phases and turns goes in and comes out of a turn as JSON,
and the engine never changes the state it was given.

Rulings cited (docs/rulings.md): 13.22.
"""

import pytest

from referee.boards.scenario import ScenarioError, simulate
from referee.engine import BoardState, Robot, TurnRun, resolve_turn

from .scenarios import element, engine_board, scenario


def test_a_turn_leaves_the_state_it_was_given_alone_and_returns_the_new_one():
    board = engine_board([element("turret", "r6c6", dir="N")])
    given = BoardState.from_dict({"turret": {"r6c6": "W"}})
    result = resolve_turn(board, [Robot("Twonky", (1, 1), 0)], {}, seed=1)
    again = resolve_turn(board, [Robot("Twonky", (1, 1), 0)], {}, seed=1, board_state=given)
    assert given.to_dict() == {"turret": {"r6c6": "W"}}
    assert result.board_state.get("turret", "cards") == again.board_state.get("turret", "cards")


def test_a_copied_run_keeps_a_state_of_its_own():
    board = engine_board([element("turret", "r6c6", dir="N")])
    run = TurnRun(board, [Robot("Twonky", (1, 1), 0)], {}, seed=2, board_state=BoardState())
    run.step()
    before = run.ctx.board_state.to_dict()
    twin = run.copy()
    twin.ctx.board_state.set("turret", "r6c6", "not a direction: only the twin holds it")
    assert run.ctx.board_state.to_dict() == before
    assert twin.ctx.board_state.get("turret", "cards") == run.ctx.board_state.get("turret", "cards")


def test_only_json_values_are_kept_and_the_document_is_sorted():
    state = BoardState()
    state.set("piston", "red", "up")
    state.set("barricade", "r2c2", 1)
    state.set("barricade", "r1c1", 2)
    assert list(state.to_dict()) == ["barricade", "piston"]
    assert list(state.to_dict()["barricade"]) == ["r1c1", "r2c2"]
    with pytest.raises(TypeError):
        state.set("piston", "red", object())
    assert BoardState.from_dict(state.to_dict()).to_dict() == state.to_dict()


def test_simulate_takes_and_gives_the_board_state_and_refuses_a_bad_one():
    doc = scenario([], {}, [element("turret", "r6c6", dir="N")], board_state={"turret": {"r6c6": "E"}}, seed=5)
    out = simulate(doc)
    assert "cards" in out["board_state"]["turret"]
    plain = simulate(scenario([], {}, []))
    assert "board_state" not in plain  # boards that remember nothing keep the result as it was
    with pytest.raises(ScenarioError, match="board state"):
        simulate(scenario([], {}, [], board_state=["r6c6"]))
