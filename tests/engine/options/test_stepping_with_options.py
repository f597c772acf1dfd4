"""The stepping API with option cards: a copy of a turn between register phases carries the robots'
options, their data and the option deck, and goes on exactly as the original."""

from referee.engine import Robot, TurnRun, parse_card
from referee.engine.decisions import Answers
from tests.engine.scenarios import engine_board, laser, repair

BOARD = engine_board([laser("r3c9", "W", 2), repair("r6c3", 2)])


def _run() -> TurnRun:
    robots = [Robot("Twonky", (3, 3), 1, options=["Ablative Coat", "Mini Howitzer"]),
              Robot("Hulk", (3, 6), 3, options=["Brakes"])]
    programs = {"Twonky": [parse_card(c) for c in ("UTRN 10", "UTRN 20", "UTRN 30", "UTRN 40", "UTRN 50")]}
    answers = Answers(standing={"Twonky": {"fire": {str(r): "Mini Howitzer" for r in range(1, 6)}}})
    return TurnRun(BOARD, robots, programs, seed=5, answers=answers, option_deck=["Shield", "Recompile"])


def test_a_copy_between_phases_goes_on_exactly_as_the_original():
    run = _run()
    run.step()
    run.step()
    twin = run.copy()
    left, right = run.finish(), twin.finish()
    assert [r.options for r in left.robots] == [r.options for r in right.robots]
    assert [r.option_data for r in left.robots] == [r.option_data for r in right.robots]
    assert left.option_deck == right.option_deck and left.events == right.events
    assert left.option_deck == ["Shield", "Recompile", "Brakes", "Ablative Coat"]  # Hulk destroyed, the coat used up


def test_the_copy_is_independent_of_the_original():
    run = _run()
    run.step()
    twin = run.copy()
    twin.ctx.robots[0].options.append("Fourth Gear")
    assert twin.ctx.option_deck is not None and run.ctx.option_deck is not None
    twin.ctx.option_deck.clear()
    assert run.ctx.robots[0].options == ["Ablative Coat", "Mini Howitzer"] and run.ctx.option_deck == ["Shield",
                                                                                                        "Recompile"]


def test_without_a_log_the_turn_ends_the_same():
    logged = _run().finish()
    run = _run()
    run.record = run.ctx.record = False
    quiet = run.finish()
    assert [(r.pos, r.damage, r.options) for r in quiet.robots] == [(r.pos, r.damage, r.options) for r in logged.robots]
    assert quiet.option_deck == logged.option_deck
