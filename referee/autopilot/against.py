"""The planner that plans against the others: it predicts their programs, then searches its own hand
against them.

The other robots' hands are secret, so the prediction uses only what a player could know: where the
robots stand, their damage and fused registers (on the table), and which cards the planner does not
see. Each other robot near enough to matter is given a hand of its size drawn from the unseen cards
(shuffled with a seed made from the turn's seed and the planner's robot: the same turn plans the
same), and its program is predicted as its own best program with the rest standing still (one round
of best response). The planner's program is then the best of its hand with those programs played
(:func:`~referee.autopilot.search.plan_program` with ``others``). Robots far away stand still: in one
turn they cannot reach the planner's robot.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from ..engine import DECK, Board, BoardState, Card, Robot, Rules, hand_size, locked_registers, needs_program
from .course import CourseMap, course_map
from .search import DEFAULT_MAX_STEPS, Plan, plan_program

#: squares (rows plus columns) within which another robot is predicted; farther ones stand still:
#: five registers of Move 3 and express belts do not bring two robots together from farther
NEAR = 14


def visible_locked(robot: Robot) -> dict[int, Card]:
    """The fused registers of ``robot`` that stay fused this turn: face up on the table."""
    fused = locked_registers(robot.damage)
    return {reg: card for reg, card in robot.locked.items() if reg in fused}


def predict_programs(board: Board, robots: Sequence[Robot], name: str, hand: Sequence[Card], *,
                     locked: Mapping[int, Card] | None = None, seed: int | str = 0, rules: Rules | None = None,
                     reentry: Mapping[str, int] | None = None, course: CourseMap | None = None,
                     board_state: BoardState | None = None, max_steps: int = DEFAULT_MAX_STEPS,
                     near: int = NEAR) -> dict[str, list[Card | None]]:
    """robot -> its predicted program, for the other robots near ``name``'s that owe one this turn."""
    course = course or course_map(board)
    me = next(r for r in robots if r.name == name)
    if me.pos is None:
        return {}
    close = [r for r in robots if r.name != name and needs_program(r) and r.pos is not None
             and abs(r.pos[0] - me.pos[0]) + abs(r.pos[1] - me.pos[1]) <= near]
    seen = {*hand, *(locked or {}).values(), *(c for r in robots for c in visible_locked(r).values())}
    unseen = [c for c in DECK if c not in seen]
    random.Random(f"predict:{seed}:{name}").shuffle(unseen)
    predicted: dict[str, list[Card | None]] = {}
    for r in close:
        size = min(hand_size(r.damage), len(unseen))
        guess, unseen = unseen[:size], unseen[size:]
        plan = plan_program(board, robots, r.name, guess, locked=visible_locked(r), seed=seed, rules=rules,
                            reentry=reentry, course=course, board_state=board_state, max_steps=max_steps)
        predicted[r.name] = plan.program
    return predicted


def plan_against_others(board: Board, robots: Sequence[Robot], name: str, hand: Sequence[Card], *,
                        locked: Mapping[int, Card] | None = None, seed: int | str = 0,
                        rules: Rules | None = None, undealt: Sequence[Card] | None = None,
                        reentry: Mapping[str, int] | None = None, max_steps: int = DEFAULT_MAX_STEPS,
                        course: CourseMap | None = None, board_state: BoardState | None = None,
                        near: int = NEAR) -> Plan:
    """The best program for robot ``name`` against the others' predicted programs (same arguments as
    :func:`~referee.autopilot.search.plan_program`; robots more than ``near`` squares away stand still)."""
    course = course or course_map(board)
    others = predict_programs(board, robots, name, hand, locked=locked, seed=seed, rules=rules,
                              reentry=reentry, course=course, board_state=board_state, max_steps=max_steps,
                              near=near)
    plan = plan_program(board, robots, name, hand, locked=locked, seed=seed, rules=rules, undealt=undealt,
                        others=others, reentry=reentry, max_steps=max_steps, course=course,
                        board_state=board_state)
    return plan
