"""The four lifecycles (seats, turns, games, observers) are complete tables, consistent with the store's
statuses, and the docs show them as the code has them (issue 41)."""

from __future__ import annotations

import re
import string
from collections import deque
from pathlib import Path

import pytest

from referee.games import states
from referee.store.community_models import OBSERVER_STATUSES
from referee.store.models import GAME_STATUSES, TURN_STATUSES

DOCS = Path(__file__).resolve().parent.parent / "docs"
ACTIONS = {"orders", "requests", "own", "press", "mail", "key", "remind", "report", "join", "seat", "deadline",
           "confirmation", "results", "final"}


@pytest.mark.parametrize("machine", states.MACHINES, ids=lambda m: m.name)
def test_every_state_has_an_answer_for_every_event(machine):
    assert set(machine.table) == {(s, e) for s in machine.states for e in machine.events}
    for (state, event), nxt in machine.table.items():
        if isinstance(nxt, states.Refuse):
            fields = {f for _, f, _, _ in string.Formatter().parse(nxt.words) if f}
            assert fields <= {"what"}, (state, event, nxt.words)
            with pytest.raises(states.IllegalTransition) as refused:
                states.step(machine, state, event, "RR-7")
            assert str(refused.value) == nxt.words.format(what="RR-7")
        else:
            assert nxt in machine.states
            assert states.step(machine, state, event, "RR-7") == nxt


@pytest.mark.parametrize("machine", states.MACHINES, ids=lambda m: m.name)
def test_every_state_is_reached_and_every_event_does_something(machine):
    seen, todo = set(machine.initial), deque(machine.initial)
    while todo:
        state = todo.popleft()
        for event in machine.events:
            nxt = machine.table[(state, event)]
            if isinstance(nxt, str) and nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    assert seen == set(machine.states)
    for event in machine.events:
        assert any(isinstance(machine.table[(s, event)], str) for s in machine.states), event
    assert set(machine.allows) <= set(machine.states)
    assert set().union(*machine.allows.values()) <= ACTIONS
    assert set(machine.meaning) == set(machine.events)


def test_an_unknown_state_or_event_is_a_refusal_not_a_crash():
    with pytest.raises(states.IllegalTransition, match="no fly from playing"):
        states.step(states.SEAT, "playing", "fly", "Hammer")
    with pytest.raises(states.IllegalTransition):
        states.step(states.GAME, "dancing", "start", "RR-7")


def test_the_machines_name_every_status_the_store_keeps():
    assert set(GAME_STATUSES) == set(states.GAME_STATES)
    assert set(TURN_STATUSES) <= set(states.TURN_STATES)
    assert set(OBSERVER_STATUSES) == {"active", "left"}   # confirmed and unsubscribed; pending is a Confirmation
    assert "pending" in states.OBSERVER_STATES


def test_a_seat_its_holder_left_allows_nothing_and_only_a_live_seat_gives_orders():
    # resigned stays resigned when the robot goes to a new player: that player's seat is another one
    assert set(states.SEAT.terminal) == {*states.GONE, "finished", "refused"}
    assert states.TURN.terminal == states.GAME.terminal == states.OBSERVER.terminal == ()
    for state in states.GONE:
        assert states.SEAT.allows.get(state, frozenset()) == frozenset()
    assert {s for s in states.SEAT_STATES if states.may(states.SEAT, s, "orders")} == {"playing", "absent"}
    assert {s for s in states.SEAT_STATES if states.may(states.SEAT, s, "key")} == {"playing", "absent",
                                                                                     "eliminated"}


def test_the_docs_show_the_tables_the_code_has():
    blocks: dict[str, list[str]] = {}
    for doc in sorted(DOCS.glob("*.md")):
        for m in re.finditer(r"<!-- lifecycle:(\w+) .*?<!-- /lifecycle:\1 -->", doc.read_text(), re.S):
            blocks.setdefault(m.group(1), []).append(m.group(0))
    assert set(blocks) == {m.name for m in states.MACHINES}
    for machine in states.MACHINES:
        for block in blocks[machine.name]:
            assert block == states.doc_table(machine), f"docs: regenerate the {machine.name} table " \
                                                       "(referee.games.states.docs_tables())"
