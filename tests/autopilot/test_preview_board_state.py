"""PREVIEW, HINT and the autopilot start from the turn's own starting state, board state included (issue 33):
a barricade broken down in an earlier turn no longer stops the previewed robot.

Rulings cited (docs/rulings.md): 17.d.
"""

from __future__ import annotations

from referee.autopilot.preview import best_programs, trace_program
from referee.engine import Robot, parse_card, parse_square
from referee.games.engine_io import turn_start
from referee.store.models import Turn
from referee.store.records import snapshot

#: on the Assembly Line the chop shop r11c11 is walled in by barricades; its south one has taken both hits
BROKEN = {"barricade": {"r11c11 S": 2}}


def broken_barricade_turn() -> Turn:
    return Turn(number=4, status="open", rules={}, undealt=[], board_before=BROKEN,
                state_before=snapshot([Robot("Twonky", parse_square("r10c11"), 0)]))


def test_the_turns_start_carries_what_the_board_remembers():
    start = turn_start(broken_barricade_turn(), "assembly")
    assert start.board_state.to_dict() == BROKEN
    assert [r.name for r in start.robots] == ["Twonky"]


def test_a_preview_goes_through_a_barricade_broken_in_an_earlier_turn():
    start = turn_start(broken_barricade_turn(), "assembly")
    program = [parse_card(c) for c in ("FWD1 490", "UTRN 10", "UTRN 20", "UTRN 30", "UTRN 40")]
    trace = trace_program(start.board, start.robots, "Twonky", program, rules=start.rules, undealt=start.undealt,
                          board_state=start.board_state)
    assert trace.registers[0].pos == parse_square("r11c11")
    fresh = trace_program(start.board, start.robots, "Twonky", program, rules=start.rules, undealt=start.undealt)
    assert fresh.registers[0].pos == parse_square("r10c11")  # an intact barricade holds it


def test_a_hint_sees_the_barricade_broken_too():
    start = turn_start(broken_barricade_turn(), "assembly")
    hand = [parse_card(c) for c in ("FWD1 490", "UTRN 10", "UTRN 20", "UTRN 30", "UTRN 40", "LF90 70")]
    (plan, *_) = best_programs(start.board, start.robots, "Twonky", hand, rules=start.rules, undealt=start.undealt,
                               board_state=start.board_state, count=1)
    assert plan.predicted.pos is not None
    run = trace_program(start.board, start.robots, "Twonky", plan.program, rules=start.rules, undealt=start.undealt,
                        board_state=start.board_state)
    assert run.end.pos == plan.predicted.pos and run.end.facing == plan.predicted.facing
