"""Events are typed (kind and args); the words come from the kind. Stored turns hold the words (as they always
did): they are read back into the same typed events and render the same report."""

from __future__ import annotations

from dataclasses import replace

import pytest

from referee.engine.events import WORDING, Event, kind_of_text, read_event
from referee.render import build_report, report_text

from .conftest import GAME, TURN, SeededTurn

SAMPLE_ARGS = {"to": "r5c4", "dir": "E", "card": "FWD3 800", "amount": 2, "register": 5, "at": "r3c4",
               "number": 1, "option": "brakes", "path": "r4-6c7"}


@pytest.mark.parametrize("kind", sorted(WORDING))
def test_every_kind_reads_back_from_its_own_words(kind):
    names = [n for n in SAMPLE_ARGS if "{" + n + "}" in WORDING[kind]]
    event = Event(1, "robots", "Twonky", kind, {n: SAMPLE_ARGS[n] for n in names} or None)
    assert kind_of_text(event.text) == (event.kind, event.args)


def test_a_stored_turn_reads_back_into_the_same_events(seeded: SeededTurn):
    events = seeded.result.events
    stored = [e.to_dict() for e in events]  # what Turn.events holds: words and data only
    assert all("kind" not in d for d in stored)
    assert [read_event(d) for d in stored] == events


def test_a_stored_turn_renders_the_same_report_as_the_fresh_result(seeded: SeededTurn):
    typed = build_report(seeded.board, seeded.result, seeded.players, GAME, TURN)
    stored = replace(seeded.result, events=[read_event(e.to_dict()) for e in seeded.result.events])
    old = build_report(seeded.board, stored, seeded.players, GAME, TURN)
    assert report_text(old) == report_text(typed)
    assert "pushed to" in report_text(old)
