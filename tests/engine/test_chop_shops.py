"""Chop shops: touched like a repair site (archive), no repair; at the end of the turn a robot on one is
offered an option card through the decision ``chop shop``.

Rulings cited (docs/rulings.md): 15.15.
"""

from referee.engine import Robot, parse_card, resolve_turn
from referee.engine.decisions import Answers, DecisionKey

from .scenarios import element, engine_board, play, robot

SHOP = element("chop_shop", "r3c4")


def test_a_robot_ending_a_phase_on_it_archives_there_and_is_not_repaired():
    p = play([SHOP], [robot("Twonky", "r2c4", "N", damage=3)], {"Twonky": ["FWD1 490"]}, phases=5)
    assert "archive r3c4" in p.texts("Twonky", 1)
    assert p.robot("Twonky")["archive"] == "r3c4"
    assert p.damage("Twonky") == 3


def test_at_the_end_of_the_turn_a_robot_on_it_draws_the_top_option_card_unless_its_player_declines():
    board = engine_board([SHOP])
    robots = [Robot("Twonky", (3, 4), 0), Robot("Hulk", (1, 1), 0)]
    result = resolve_turn(board, robots, {}, option_deck=["Brakes", "Shield", "Fourth Gear"])
    offered = [d for d in result.decisions if d.key.subject == "chop shop"]
    assert [(d.robot, d.answer, d.source) for d in offered] == [("Twonky", "option", "default")]
    assert result.robots[0].options == ["Brakes"] and result.robots[1].options == []
    assert result.option_deck == ["Shield", "Fourth Gear"]
    declined = resolve_turn(board, robots, {}, answers=Answers(orders={"Twonky": {DecisionKey("chop shop"): "none"}}),
                            option_deck=["Brakes", "Shield"])
    assert [(d.answer, d.source, d.note) for d in declined.decisions if d.key.subject == "chop shop"] == \
        [("none", "orders", None)]
    assert declined.robots[0].options == [] and declined.option_deck == ["Brakes", "Shield"]


def test_a_robot_passing_over_or_leaving_before_the_end_is_offered_nothing():
    board = engine_board([SHOP])
    program = [parse_card(c) for c in ("FWD2 670", "UTRN 10", "UTRN 20", "UTRN 30", "UTRN 40")]
    result = resolve_turn(board, [Robot("Twonky", (2, 4), 0)], {"Twonky": program})
    assert result.robots[0].pos == (4, 4)
    assert not [d for d in result.decisions if d.key.subject == "chop shop"]


def test_a_powered_down_robot_on_it_neither_touches_it_nor_is_offered_anything():
    board = engine_board([SHOP])
    result = resolve_turn(board, [Robot("Sleepy", (3, 4), 0, powered_down=True, archive=(1, 1))], {})
    assert result.robots[0].archive == (1, 1)
    assert not result.decisions
