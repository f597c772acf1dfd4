"""Puddles: too shallow to slow robots; a burning robot moving into or through one is put out.

Rulings cited (docs/rulings.md): 14.7.
"""

from referee.engine import Robot, parse_card, resolve_turn

from .scenarios import element, engine_board, play, robot

PUDDLE = [element("puddle", "r3c4")]


def _burning_robot_runs(start: tuple[int, int], card: str) -> Robot:
    board = engine_board(PUDDLE, 8, 8)
    twonky = Robot("Twonky", start, 0, statuses={"burning"})
    result = resolve_turn(board, [twonky], {"Twonky": [parse_card(card)]}, phases=1)
    return result.robots[0]


def test_a_puddle_does_not_slow_a_robot_moving_into_through_or_out_of_it():
    assert play(PUDDLE, [robot("Twonky", "r2c4", "N")], {"Twonky": ["FWD2 670"]}).at("Twonky") == "r4c4"
    assert play(PUDDLE, [robot("Twonky", "r3c4", "N")], {"Twonky": ["FWD1 490"]}).at("Twonky") == "r4c4"


def test_a_burning_robot_moving_through_a_puddle_is_put_out():
    twonky = _burning_robot_runs((2, 4), "FWD3 800")
    assert twonky.pos == (5, 4)
    assert "burning" not in twonky.statuses


def test_a_burning_robot_that_misses_the_puddle_keeps_burning():
    twonky = _burning_robot_runs((2, 5), "FWD3 800")
    assert "burning" in twonky.statuses


def test_the_log_says_the_fire_is_out_once():
    board = engine_board(PUDDLE, 8, 8)
    result = resolve_turn(board, [Robot("Twonky", (2, 4), 0, statuses={"burning"})],
                          {"Twonky": [parse_card("FWD1 490")]}, phases=1)
    assert [e.text for e in result.events if e.robot == "Twonky"][:2] == ["move to r3c4", "fire out"]
