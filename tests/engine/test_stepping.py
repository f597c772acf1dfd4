"""Stepping a turn one register at a time (the search API): the same result as resolving it whole, copies
that go their own way, and no log when none is wanted."""

import pytest

from referee.engine import TurnRun, parse_card, resolve_turn
from referee.engine.state import Robot

from .scenarios import belt, engine_board, laser, pit

BOARD = engine_board([belt("r3c1-r3c6", "E"), laser("r8c2", "S"), pit("r6c4"),
                      {"kind": "randomizer", "at": "r2c2"}])
PROGRAMS = {"Twonky": [parse_card(c) for c in ("FWD2 670", "RT90 80", "FWD1 490", "LF90 70", "FWD3 790")],
            "Hulk": [parse_card(c) for c in ("FWD1 500", "FWD1 510", "UTRN 10", "FWD2 680", "RVS1 430")]}


def robots() -> list[Robot]:
    return [Robot("Twonky", (2, 2), 0), Robot("Hulk", (4, 4), 2, damage=3)]


def test_stepping_each_register_then_finishing_is_resolving_the_turn():
    run = TurnRun(BOARD, robots(), PROGRAMS, seed=7)
    while not run.done:
        run.step()
    assert run.finish() == resolve_turn(BOARD, robots(), PROGRAMS, seed=7)


def test_a_copy_goes_its_own_way_and_the_original_is_untouched():
    run = TurnRun(BOARD, robots(), PROGRAMS, seed=7)
    run.step()
    trial = run.copy()
    trial.set_card("Twonky", 2, parse_card("UTRN 20"))
    trial.step()
    assert run.phases_run == 1 and trial.phases_run == 2
    assert trial.robots[0].facing == 2 and run.robots[0].facing == 0
    assert run.finish() == resolve_turn(BOARD, robots(), PROGRAMS, seed=7)


def test_a_copy_of_a_turn_drawing_random_cards_draws_the_same_as_the_original():
    run = TurnRun(BOARD, robots(), PROGRAMS, seed=3)
    twin = run.copy()
    assert run.finish() == twin.finish()


def test_without_a_log_the_robots_end_the_same_and_nothing_is_recorded():
    quiet = TurnRun(BOARD, robots(), PROGRAMS, seed=7, record=False).finish()
    loud = resolve_turn(BOARD, robots(), PROGRAMS, seed=7)
    assert quiet.robots == loud.robots and loud.events
    assert quiet.events == [] and quiet.frames == []


def test_a_register_already_run_cannot_be_changed():
    run = TurnRun(BOARD, robots(), PROGRAMS, seed=7)
    run.step()
    with pytest.raises(ValueError, match="already run"):
        run.set_card("Twonky", 1, parse_card("UTRN 20"))
