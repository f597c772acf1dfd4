"""The timing table dispatches every hook: a handler it cannot call is refused when its kind registers,
and what a robot carries acts in the same steps as the board's elements."""

from __future__ import annotations

import pytest

from referee.engine import KINDS, build_board, resolve_turn
from referee.engine.cards import parse_card
from referee.engine.hooks import Effect, HookError, on, register_effect
from referee.engine.kinds import Kind, register
from referee.engine.state import Robot
from referee.engine.timing import CARD, CROSS, ENTER, ROTATE, STEP_IDS, STOP, TIMING


def _noop_phase(ctx, phase):
    pass


def _noop_stop(ctx, robot, card, plan):
    pass



def test_every_step_of_the_table_dispatches_at_least_one_hook_type():
    assert all(step.hooks for step in TIMING)
    assert STEP_IDS["move.oil"].hooks == (STOP,)
    assert STEP_IDS["move.flamers"].hooks == (ENTER, ROTATE)


def test_a_kind_acting_in_a_step_nothing_dispatches_board_wide_is_refused(scratch):
    """move.oil runs stop hooks while a robot executes its card: a phase handler there is never called."""
    scratch.append("slick")
    with pytest.raises(HookError, match=r"move\.oil"):
        register(Kind(name="slick", rank=900, steps={"move.oil": _noop_phase}))
    assert "slick" not in KINDS


def test_a_hook_of_a_type_its_step_does_not_dispatch_is_refused():
    with pytest.raises(HookError, match="dispatches stop hooks, not 'enter'"):
        on("move.oil", _noop_stop, ENTER)


def test_a_handler_of_the_wrong_shape_is_refused(scratch):
    scratch.append("slick")
    with pytest.raises(HookError, match="takes \\(ctx, robot, card, plan\\)"):
        on("move.oil", _noop_phase)
    with pytest.raises(HookError, match="takes \\(ctx, phase\\)"):
        register(Kind(name="slick", rank=900, steps={"board.gears": _noop_stop}))


def test_an_unknown_step_is_refused():
    with pytest.raises(HookError, match=r"unknown step 'move\.quicksand'"):
        on("move.quicksand", _noop_stop)


def test_a_step_with_two_hook_types_needs_the_type_said():
    with pytest.raises(HookError, match="say which"):
        on("move.flamers", _noop_stop)


def test_a_stop_hook_a_new_kind_registers_is_called_when_a_card_ends_on_its_square(scratch):
    """A kind registered for move.oil is planned and called: here it turns robots stopping on it around."""
    calls = []

    def spin(ctx, robot, card, plan):
        calls.append((robot.name, str(card), plan.start))
        robot.facing = (robot.facing + 2) % 4

    scratch.append("spinner")
    register(Kind(name="spinner", rank=900, hooks=(on("move.oil", spin),)))
    board = build_board({"width": 5, "height": 5, "elements": [{"kind": "spinner", "at": "r3c3"}]})
    result = resolve_turn(board, [Robot("Twonky", (1, 3), 0)], {"Twonky": [parse_card("FWD2 670")]}, phases=1)
    assert calls == [("Twonky", "FWD2 670", (1, 3))]
    assert result.robots[0].pos == (3, 3) and result.robots[0].facing == 2


def test_card_hooks_see_turn_cards_too(scratch):
    seen = []

    def note(ctx, robot, card, plan):
        seen.append((str(card), plan.turn, plan.squares))
        plan.turn = 3  # soap-like: the robot turns the other way

    scratch.append("mirror floor")
    register(Kind(name="mirror floor", rank=900, hooks=(on("move.mirrors", note, CARD),)))
    board = build_board({"width": 5, "height": 5, "elements": [{"kind": "mirror floor", "at": "r3c3"}]})
    result = resolve_turn(board, [Robot("Twonky", (3, 3), 0)], {"Twonky": [parse_card("RT90 80")]}, phases=1)
    assert seen == [("RT90 80", 1, 0)]
    assert result.robots[0].facing == 3


def test_an_effect_a_robot_carries_acts_in_its_step_wherever_the_robot_is(scratch):
    """An option that forbids backing up north: a cross hook carried by the robot, not by a square."""

    def no_north(ctx, robot, d):
        return d != 0

    scratch.append("anchor")
    register_effect(Effect("anchor", "cannot move north", hooks=(on("move.walls", no_north, CROSS),)))
    board = build_board({"width": 5, "height": 5, "elements": []})
    anchored = Robot("Twonky", (1, 3), 0, options=["anchor"])
    free = Robot("Hulk", (1, 1), 0)
    program = {"Twonky": [parse_card("FWD1 490")], "Hulk": [parse_card("FWD1 500")]}
    result = resolve_turn(board, [anchored, free], program, phases=1)
    by_name = {r.name: r for r in result.robots}
    assert by_name["Twonky"].pos == (1, 3)
    assert by_name["Hulk"].pos == (2, 1)


def test_an_effect_may_only_carry_hooks_that_act_on_a_robot(scratch):
    scratch.append("clock")
    with pytest.raises(HookError, match="only move hooks"):
        register_effect(Effect("clock", hooks=(on("board.gears", _noop_phase),)))


def test_a_hit_carries_its_direction_so_an_effect_can_stop_damage_from_the_front(scratch):
    """A shield: damage travelling against the robot's facing (from the front) does not land."""

    def shield(ctx, robot, hit):
        return 0 if hit.direction == (robot.facing + 2) % 4 else hit.amount

    scratch.append("front shield")
    register_effect(Effect("front shield", guard=shield))
    board = build_board({"width": 5, "height": 5, "elements": [
        {"kind": "laser", "at": "r5c3", "dir": "S"}, {"kind": "laser", "at": "r3c1", "dir": "E"}]})
    facing_the_beam = Robot("Twonky", (3, 3), 0, options=["front shield"])
    result = resolve_turn(board, [facing_the_beam], {}, phases=1)
    twonky = result.robots[0]
    assert twonky.damage == 1  # the beam from the north is stopped, the one from the west lands
    hits = [e.data for e in result.events if e.text == "-1 HP"]
    assert hits == [{"cause": "laser", "by": "board laser r3c1"}]
