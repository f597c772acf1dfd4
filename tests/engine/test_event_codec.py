"""The stored form of a turn's log: typed and versioned, read back into the very same events; the word form
turns were stored in before is read too, and a replay is compared with a stored log in the log's own form.

Rulings cited (docs/rulings.md): 12.c.
"""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from referee.engine import build_board, parse_card, resolve_turn
from referee.engine.decisions import DECISION, Answers
from referee.engine.event_codec import EVENTS_VERSION, contract_events, decode_events, encode_events, same_events
from referee.engine.state import Robot

BOARD = build_board({"width": 6, "height": 6, "elements": [
    {"kind": "belt", "at": "r1c2-r4c2", "dir": "N"},
    {"kind": "pusher", "at": "r5c5", "dir": "W", "phases": [1, 3, 5]},
    {"kind": "laser", "at": "r6c4", "dir": "S"},
    {"kind": "repair", "at": "r2c3", "wrenches": 2},
    {"kind": "pit", "at": "r6c6"},
]})


@pytest.fixture(scope="module")
def result():
    """A turn with moves, pushes, belts, laser fire, damage, a fall, options and decisions."""
    robots = [Robot("Twonky", (1, 2), 0, options=["Brakes"]), Robot("Hulk", (5, 5), 1, damage=5),
              Robot("Zoom", (3, 4), 3, damage=2)]
    programs = {"Twonky": [parse_card(c) for c in ("FWD1 500", "RT90 80", "FWD2 700", "LF90 90", "FWD1 510")],
                "Hulk": [parse_card(c) for c in ("FWD1 520", "UTRN 10", "FWD1 530", "FWD3 800", "RVS1 430")],
                "Zoom": [parse_card(c) for c in ("LF90 70", "FWD1 540", "RT90 100", "FWD1 550", "UTRN 20")]}
    answers = Answers(standing={"Zoom": {"two_wrenches": "repair"}})
    return resolve_turn(BOARD, robots, programs, answers=answers, seed=12)


def stored(column):
    """What a JSON column gives back."""
    return json.loads(json.dumps(column))


def test_the_stored_log_is_typed_versioned_and_holds_no_words(result):
    column = stored(encode_events(result.events))
    assert column["version"] == EVENTS_VERSION
    assert {e["kind"] for e in column["events"]} >= {"move", "face", DECISION}
    assert all("text" not in e for e in column["events"])


def test_a_stored_log_reads_back_into_the_same_events(result):
    assert decode_events(stored(encode_events(result.events))) == result.events


def test_a_log_stored_in_words_reads_back_into_the_same_events_but_the_decisions_it_never_held(result):
    words = stored([e.to_dict() for e in result.events if e.kind != DECISION])  # what the store held before
    assert decode_events(words) == [e for e in result.events if e.kind != DECISION]


def test_a_gm_sees_either_form_in_words(result):
    typed = stored(encode_events(result.events))
    assert contract_events(typed) == [e.to_dict() for e in result.events]
    assert any(d["text"].endswith("(standing)") for d in contract_events(typed))
    words = stored([e.to_dict() for e in result.events if e.kind != DECISION])
    assert contract_events(words) == words


def test_a_replay_is_compared_with_the_stored_log_in_its_own_form(result):
    typed = stored(encode_events(result.events))
    words = stored([e.to_dict() for e in result.events if e.kind != DECISION])
    assert same_events(typed, result.events) and same_events(words, result.events)
    other = list(result.events)
    first_move = next(i for i, e in enumerate(other) if e.kind == "move")
    other[first_move] = replace(other[first_move], args={"to": "r6c6"})
    assert not same_events(typed, other) and not same_events(words, other)
    no_decisions = [e for e in result.events if e.kind != DECISION]
    assert not same_events(typed, no_decisions)  # a typed log holds its decisions: a replay must take them too


def test_no_log_is_no_events_and_a_newer_version_is_refused():
    assert decode_events(None) == [] and same_events(None, [])
    with pytest.raises(ValueError, match="newer"):
        decode_events({"version": EVENTS_VERSION + 1, "events": []})
    with pytest.raises(ValueError):
        decode_events("move to r5c4")
