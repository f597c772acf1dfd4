"""A turn's events are stored typed (kind, args, data, a version); turns stored before in words still show,
count in the standings and replay as they did.

``old_form_turns.json`` holds four turns of a sprint game (seed ``old-form``, random programs) exactly as the
store held them before events were stored typed, with the report text the referee made from them then.

Rulings cited (docs/rulings.md): 12.b.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee import games as g
from referee.engine.event_codec import EVENTS_VERSION, decode_events
from referee.render import build_report, report_text
from referee.reports import report_players, stored_turn_result
from referee.reports.standings import summarize
from referee.reports.stored import course_board

from ..reports.helpers import new_game, play_turns

OLD = json.loads((Path(__file__).parent / "old_form_turns.json").read_text())
NUMBERS = [t["number"] for t in OLD["turns"]]


@pytest.fixture
def old_game(store):
    """The fixture's game played again today: the same seed and programs give the same turns, stored typed."""
    code = new_game(store, course=OLD["course"], seed="old-form")
    play_turns(store, code, len(OLD["turns"]))
    with store.read() as s:
        game = g.get_game(s, code)
        for old in OLD["turns"]:
            assert g.get_turn(s, game, old["number"]).state_before == old["columns"]["state_before"]
    return code


def _store_old_form(store, code):
    """Put the words the earlier referee stored back into every turn's events column."""
    with store.write() as s:
        game = g.get_game(s, code)
        for old in OLD["turns"]:
            g.get_turn(s, game, old["number"]).events = old["columns"]["events"]


def _tables(text):
    """The report's stage tables: what the earlier referee wrote (the block of every robot's program after
    them came later)."""
    return text.split("\nPrograms: every robot's cards")[0]


def _report(s, game, number):
    turn = g.get_turn(s, game, number)
    return report_text(build_report(course_board(game), stored_turn_result(turn), report_players(game, turn),
                                    "OLDFORM", number))


def test_a_turn_is_stored_typed_with_no_words(store, old_game):
    with store.read() as s:
        game = g.get_game(s, old_game)
        stored = g.get_turn(s, game, 1).events
    assert stored["version"] == EVENTS_VERSION
    assert stored["events"] and all("kind" in e and "text" not in e for e in stored["events"])


@pytest.mark.parametrize("number", NUMBERS)
def test_a_turn_stored_typed_renders_the_tables_the_words_gave(store, old_game, number):
    with store.read() as s:
        text = _report(s, g.get_game(s, old_game), number)
    assert _tables(text) == OLD["turns"][number - 1]["report"]


@pytest.mark.parametrize("number", NUMBERS)
def test_a_turn_stored_in_words_still_renders_the_same_tables(store, old_game, number):
    with store.read() as s:
        typed = _report(s, g.get_game(s, old_game), number)
    _store_old_form(store, old_game)
    with store.read() as s:
        game = g.get_game(s, old_game)
        assert isinstance(g.get_turn(s, game, number).events, list)
        text = _report(s, game, number)
    assert _tables(text) == OLD["turns"][number - 1]["report"]
    assert text == typed  # the programs block after the tables too


def test_turns_stored_in_words_replay_and_count_as_they_did(store, old_game):
    with store.read() as s:
        game = g.get_game(s, old_game)
        turns = [g.get_turn(s, game, n) for n in NUMBERS]
        typed_standings = summarize(game, turns, course_board(game).flag_count)
    _store_old_form(store, old_game)
    with store.read() as s:
        game = g.get_game(s, old_game)
        turns = [g.get_turn(s, game, n) for n in NUMBERS]
        assert summarize(game, turns, course_board(game).flag_count) == typed_standings
        for number in NUMBERS:
            _, same = g.replay_turn(s, game, number)
            assert same, f"turn {number} stored in words replays differently"
            view = g.turn_view(s, game, number)
            assert view["events"] == OLD["turns"][number - 1]["columns"]["events"]
    with store.write() as s:
        rerun = g.rerun_turn(s, old_game, NUMBERS[-1], actor="gm:test")
    assert not rerun.changed  # the same result: the old words are left as they are


def test_a_word_form_turn_and_its_typed_twin_read_back_the_same_events(store, old_game):
    with store.read() as s:
        game = g.get_game(s, old_game)
        typed = {n: g.get_turn(s, game, n).events for n in NUMBERS}
    for old in OLD["turns"]:
        assert decode_events(old["columns"]["events"]) == \
            [e for e in decode_events(typed[old["number"]]) if e.kind != "decision"]


def test_a_decision_is_stored_with_the_turn_replays_and_shows_to_the_gm_not_in_the_tables(store):
    code = new_game(store, course=OLD["course"], seed="decisions")
    with store.write() as s:  # as a GM's SET would: Twonky holds a Gyroscopic Stabilizer, asked every turn
        turn = g.open_turn(s, g.get_game(s, code))
        state = [dict(r) for r in turn.state_before]
        state[0]["options"] = ["Gyroscopic Stabilizer"]
        turn.state_before = state
    play_turns(store, code, 1)
    with store.read() as s:
        game = g.get_game(s, code)
        stored = g.get_turn(s, game, 1).events
        (decision,) = [e for e in stored["events"] if e["kind"] == "decision"]
        assert (decision["phase"], decision["robot"], decision["args"]["source"]) == ("start", "Twonky", "default")
        result = stored_turn_result(g.get_turn(s, game, 1))
        assert [(d.robot, d.key.subject, d.answer) for d in result.decisions] == [("Twonky", "gyroscope", False)]
        _, same = g.replay_turn(s, game, 1)
        assert same
        shown = [e["text"] for e in g.turn_view(s, game, 1)["events"] if e["robot"] == "Twonky"]
        assert "gyroscope: chose False (default)" in shown
        assert "chose" not in _report(s, game, 1)
