"""Every decision the engine takes is an event of the turn's log, where it was taken: what was asked, the
answer and where the answer came from. The report tables show only the choices a player made in this
turn's orders and the ones the engine could not follow; defaults and standing orders stay in the log.

Rulings cited (docs/rulings.md): 12.a.
"""

from __future__ import annotations

import pytest

from referee.boards.scenario import simulate
from referee.engine import TurnRun, build_board, parse_card, resolve_turn
from referee.engine.decisions import DECISION, TWO_WRENCHES, Answers, DecisionKey, decisions_of, table_items
from referee.engine.events import register_wording
from referee.engine.option_orders import BRAKES, order_key
from referee.engine.state import Robot
from referee.render import build_report, make_players, report_text

TWO_WRENCH_SITE = build_board({"width": 5, "height": 5, "elements": [{"kind": "repair", "at": "r3c3", "wrenches": 2}]})


def on_the_site() -> list[Robot]:
    return [Robot("Twonky", (3, 3), 0, damage=4)]


def report(board, result) -> str:
    return report_text(build_report(board, result, make_players(["Twonky"]), "RR-12", 3))


def cell(board, result, table: str, row: str) -> list[str]:
    """What Twonky's column of one row of the report's tables says."""
    (found,) = [t for t in build_report(board, result, make_players(["Twonky"]), "RR-12", 3).tables if t.key == table]
    (wanted,) = [r for r in found.rows if r.key == row]
    return wanted.cells[0]


def test_a_default_decision_is_logged_where_it_was_taken_but_not_shown_in_the_tables():
    result = resolve_turn(TWO_WRENCH_SITE, on_the_site(), {})
    (event,) = [e for e in result.events if e.kind == DECISION]
    assert (event.phase, event.robot, event.text) == ("end", "Twonky", "two wrenches: chose repair (default)")
    assert decisions_of(result.events) == result.decisions
    assert table_items(event) == []
    assert "chose" not in report(TWO_WRENCH_SITE, result) and "+2 HP" in report(TWO_WRENCH_SITE, result)


def test_a_standing_order_is_logged_with_its_source_and_left_out_of_the_tables():
    answers = Answers(standing={"Twonky": {"two_wrenches": "option"}})
    result = resolve_turn(TWO_WRENCH_SITE, on_the_site(), {}, answers=answers, option_deck=["Brakes"])
    (event,) = [e for e in result.events if e.kind == DECISION]
    assert event.text == "two wrenches: chose option (standing)"
    text = report(TWO_WRENCH_SITE, result)
    assert "chose" not in text and "draws option Brakes" in text


def test_a_choice_in_this_turns_orders_is_shown_in_the_end_of_turn_table():
    answers = Answers(orders={"Twonky": {DecisionKey(TWO_WRENCHES): "option"}})
    result = resolve_turn(TWO_WRENCH_SITE, on_the_site(), {}, answers=answers, option_deck=["Brakes"])
    # the table words the choice as the player made it, never the engine's "chose ... (orders)"
    assert cell(TWO_WRENCH_SITE, result, "end", "hp")[:2] == ["two wrenches: option", "draws option Brakes"]


def test_an_order_for_a_register_is_shown_in_that_stages_card_row():
    board = build_board({"width": 5, "height": 5, "elements": []})
    robots = [Robot("Twonky", (1, 3), 0, options=["Brakes"])]
    answers = Answers(orders={"Twonky": {order_key(BRAKES, 2): True}})
    programs = {"Twonky": [parse_card(c) for c in ("FWD1 500", "FWD1 510", "FWD1 520", "FWD1 530", "FWD1 540")]}
    result = resolve_turn(board, robots, programs, answers=answers)
    shown = [(e.phase, e.text) for e in result.events if e.kind == DECISION and table_items(e)]
    assert shown == [(2, "brakes, register 2: chose True (orders)")]
    assert cell(board, result, "stage2", "card") == ["FWD1 510", "ordered BRAKES 2"]   # never "chose True"
    assert cell(board, result, "stage3", "card") == ["FWD1 520"]


def test_an_answer_the_engine_cannot_follow_is_shown_with_what_it_did_instead():
    board = build_board({"width": 5, "height": 5, "elements": []})
    robots = [Robot("Twonky", (3, 1), 1, options=["Mini Howitzer"]), Robot("Hulk", (3, 5), 3)]
    answers = Answers(standing={"Twonky": {"fire": {"1": "Pressor Beam"}}})
    result = resolve_turn(board, robots, {}, phases=1, answers=answers)
    fire, sacrifice = [e for e in result.events if e.kind == DECISION and e.robot == "Twonky"]
    assert table_items(sacrifice) == []  # asked at the hit, answered by the default threshold
    assert table_items(fire) == [
        "fire, register 1: chose Pressor Beam (standing); no weapon 'Pressor Beam': the main laser fires"]


def test_a_search_keeping_no_events_still_has_the_decisions():
    run = TurnRun(TWO_WRENCH_SITE, on_the_site(), {}, record=False)
    result = run.finish()
    assert result.events == [] and [d.answer for d in result.decisions] == ["repair"]


def test_the_scenario_contracts_log_is_unchanged_and_decisions_keep_their_own_key():
    scenario = {"board": {"width": 5, "height": 5,
                          "elements": [{"kind": "repair", "at": "r3c3", "wrenches": 2}]},
                "robots": [{"name": "Twonky", "at": "r3c3", "facing": "N", "damage": 4}],
                "standing": {"Twonky": {"two_wrenches": "repair"}}}
    out = simulate(scenario)
    assert [e["text"] for e in out["events"] if e["phase"] == "end"] == ["+2 HP"]
    assert not [e for e in out["events"] if "chose" in e["text"]]
    assert out["decisions"] == [{"robot": "Twonky", "subject": TWO_WRENCHES, "answer": "repair",
                                 "source": "standing"}]


def test_no_board_element_may_take_the_decision_kind_for_events_of_its_own():
    with pytest.raises(ValueError, match="engine's own"):
        register_wording(DECISION, "decided {answer}")
