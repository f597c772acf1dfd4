"""Decisions: an effect asks by key; the turn's orders answer first, then standing orders, then the default,
and every decision is recorded so a replay makes the same choice.

Rulings cited (docs/rulings.md): 16.5.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from referee.engine import build_board, resolve_turn
from referee.engine.decisions import FIRE, SACRIFICE, TWO_WRENCHES, Answers, DecisionKey
from referee.engine.hooks import EFFECTS, Effect, register_effect
from referee.engine.state import Robot

TWO_WRENCH_SITE = build_board({"width": 5, "height": 5, "elements": [{"kind": "repair", "at": "r3c3", "wrenches": 2}]})


def on_the_site(damage: int = 4) -> list[Robot]:
    return [Robot("Twonky", (3, 3), 0, damage=damage)]


def test_on_two_wrenches_the_default_is_repair():
    result = resolve_turn(TWO_WRENCH_SITE, on_the_site(), {})
    assert result.robots[0].damage == 2
    assert [d.to_dict() for d in result.decisions] == [
        {"robot": "Twonky", "subject": TWO_WRENCHES, "answer": "repair", "source": "default"}]


def test_a_standing_option_choice_is_recorded_and_the_robot_draws_the_top_option_instead_of_repairing():
    answers = Answers(standing={"Twonky": {"two_wrenches": "option"}})
    result = resolve_turn(TWO_WRENCH_SITE, on_the_site(), {}, answers=answers, option_deck=["Brakes", "Shield"])
    assert (result.robots[0].damage, result.robots[0].options) == (4, ["Brakes"])
    assert result.option_deck == ["Shield"]
    (decision,) = result.decisions
    assert (decision.answer, decision.source) == ("option", "standing")


def test_with_the_option_deck_empty_the_robot_choosing_an_option_is_repaired():
    answers = Answers(standing={"Twonky": {"two_wrenches": "option"}})
    result = resolve_turn(TWO_WRENCH_SITE, on_the_site(), {}, answers=answers, option_deck=[])
    assert (result.robots[0].damage, result.robots[0].options) == (2, [])
    assert "no option left to draw" in [e.text for e in result.events]


def test_the_turns_orders_answer_before_the_standing_orders():
    answers = Answers(orders={"Twonky": {DecisionKey(TWO_WRENCHES): "repair"}},
                      standing={"Twonky": {"two_wrenches": "option"}})
    result = resolve_turn(TWO_WRENCH_SITE, on_the_site(), {}, answers=answers)
    assert [(d.answer, d.source) for d in result.decisions] == [("repair", "orders")]


def test_an_undamaged_robot_on_a_one_wrench_site_is_asked_nothing():
    board = build_board({"width": 5, "height": 5, "elements": [{"kind": "repair", "at": "r3c3"}]})
    assert resolve_turn(board, on_the_site(), {}).decisions == []


@pytest.fixture
def zapper() -> Iterator[list[str]]:
    """An option weapon that deals 2 damage to every other robot in its row."""
    shots: list[str] = []

    def fire(ctx, robot, phase):
        shots.append(f"register {phase}")
        for other in ctx.robots:
            if other is not robot and other.pos and other.pos[0] == robot.pos[0]:
                ctx.hit_later(other, 2, robot.name, cause="zapper")

    register_effect(Effect("zapper", weapon=fire))
    yield shots
    EFFECTS.pop("zapper")


def test_fire_orders_choose_the_weapon_of_each_register(zapper):
    board = build_board({"width": 6, "height": 5, "elements": []})
    robots = [Robot("Twonky", (3, 1), 1, options=["zapper"]), Robot("Hulk", (3, 5), 3)]
    answers = Answers(standing={"Twonky": {"fire": {"2": "zapper"}}, "Hulk": {}})
    result = resolve_turn(board, robots, {}, phases=2, answers=answers)
    assert zapper == ["register 2"]
    hulk = [(e.phase, e.text, (e.data or {}).get("cause")) for e in result.events
            if e.robot == "Hulk" and "HP" in e.text]
    assert hulk == [(1, "-1 HP", "laser"), (2, "-2 HP", "zapper")]
    assert [(d.key, d.answer, d.source) for d in result.decisions if d.key.subject == FIRE] == [
        (DecisionKey(FIRE, register=1), "main laser", "default"), (DecisionKey(FIRE, register=2), "zapper", "standing")]


def test_at_the_sacrifice_threshold_an_option_is_given_up_instead_of_a_point_of_damage():
    board = build_board({"width": 5, "height": 5, "elements": [{"kind": "laser", "at": "r5c3", "dir": "S"}]})
    robots = [Robot("Twonky", (3, 3), 0, damage=4, options=["shield", "brakes"])]  # HP 6: the default threshold
    result = resolve_turn(board, robots, {}, phases=1)
    twonky = result.robots[0]
    assert (twonky.damage, twonky.options) == (4, ["shield"])
    assert [e.text for e in result.events if e.robot == "Twonky"] == \
        ["r4-5c3", "sacrifice: chose 6 (default)", "option brakes sacrificed"]
    assert [(d.key, d.answer) for d in result.decisions] == [(DecisionKey(SACRIFICE), 6)]


def test_sacrifice_never_keeps_the_options():
    board = build_board({"width": 5, "height": 5, "elements": [{"kind": "laser", "at": "r5c3", "dir": "S"}]})
    robots = [Robot("Twonky", (3, 3), 0, damage=4, options=["shield"])]
    result = resolve_turn(board, robots, {}, phases=1, answers=Answers(standing={"Twonky": {"sacrifice_at": 0}}))
    assert (result.robots[0].damage, result.robots[0].options) == (5, ["shield"])
