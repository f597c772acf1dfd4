"""The planner that plans against the others: it predicts their programs, then searches its own hand
against them.

The other robots' hands are secret, so the prediction uses only what a player could know: where the
robots stand, their damage and fused registers (on the table), and which cards the planner does not
see. Each other robot near enough to matter is given a hand of its size drawn from the unseen cards
(shuffled with a seed made from the turn's seed and the planner's robot: the same turn plans the
same), and its program is predicted as its own best program with the rest standing still (one round
of best response). The planner's program is then the best of its hand with those programs played
(:func:`~referee.autopilot.search.plan_program` with ``others``). Robots far away stand still: in one
turn they cannot reach the planner's robot. On a big board (not classic: :func:`big`) every search is
held to a step budget, tries the best card first and weighs damage against distance.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import replace

from ..engine import (
    DECK,
    Board,
    BoardState,
    Card,
    Robot,
    Rules,
    TurnRun,
    hand_size,
    locked_registers,
    needs_program,
)
from .course import CourseMap, course_map
from .power import powers_down
from .score import Score, score_robot, score_wary
from .search import BOUND_SLACK, BOUNDED_KINDS, DEFAULT_MAX_STEPS, Plan, plan_program, searched

#: squares (rows plus columns) within which another robot is predicted; farther ones stand still. A robot
#: farther away may still reach the planner's in a turn, but its program is guessed from a guessed hand:
#: planning against such guesses lost more games than it won (measured against the standing-still planner:
#: 6 squares won 108 of 200 sprint games, 14 squares 97 of the same 200; grand-prix 45 and 44 of 90,
#: factory 35 and 36 of 60)
NEAR = 6
#: hedge: when the program planned against the predictions differs from the one planned with the others
#: standing still, keep the one whose worse score over those two worlds is better (the predictions
#: are guesses from unseen cards)
HEDGE = True
#: register steps a prediction may spend (a guess from a guessed hand: its tail is not worth a full search)
PREDICT_STEPS = 500
#: register steps the search against the predictions may spend beyond twice the standing-still search's
AGAINST_EXTRA_STEPS = 200
#: on a board that is not classic (a register there costs about four times a classic board's, and the bound is a
#: guess) a prediction, the standing-still search and the search against the predictions spend at most
#: these register steps: the searches try the best card first, so a search cut short has its best lines.
#: Ruling 46.a2: back to the budgets before 46.a1 (30, 200, 250), which the compiled engine pays for
BIG_BOARD_STEPS = (120, 350, 450)
#: the planner's own searches weigh damage against distance (:func:`~referee.autopilot.score.score_wary`):
#: None: on big boards only (measured: stronger on the factory course, weaker on sprint and grand-prix)
WARY: bool | None = None

#: this planner's searches try the best register first (``order``) and use the search's bound on every
#: board with this slack (a heuristic on boards that are not classic: a teleporter may beat the course map
#: by more than the slack)
SLACK = BOUND_SLACK


def big(board: Board) -> bool:
    """``board`` is not classic (teleporters, ice, machines...): a register costs more there and the
    search's bound is a guess, so this planner's searches are budgeted (:data:`BIG_BOARD_STEPS`) and try
    the best card first. On a classic board they search as the standing-still planner does (cards of
    high priority first), measured stronger there."""
    return not BOUNDED_KINDS.issuperset(board.layers)


def budgets(board: Board) -> tuple[int, int, int]:
    """The register steps of a prediction, of the standing-still search and of the search against the
    predictions on ``board`` (:data:`BIG_BOARD_STEPS` where the board is :func:`big`)."""
    return BIG_BOARD_STEPS if big(board) else (PREDICT_STEPS, DEFAULT_MAX_STEPS, DEFAULT_MAX_STEPS)


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
    course = course or course_map(board, rules)
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
        # the program only: the robot it leaves is not needed (no final run of it)
        predicted[r.name] = searched(board, robots, r.name, guess, locked=visible_locked(r), seed=seed, rules=rules,
                                     reentry=reentry, course=course, board_state=board_state,
                                     max_steps=min(max_steps, budgets(board)[0]), order=big(board), slack=SLACK)[3]
    return predicted


def plan_against_others(board: Board, robots: Sequence[Robot], name: str, hand: Sequence[Card], *,
                        locked: Mapping[int, Card] | None = None, seed: int | str = 0,
                        rules: Rules | None = None, undealt: Sequence[Card] | None = None,
                        reentry: Mapping[str, int] | None = None, max_steps: int = DEFAULT_MAX_STEPS,
                        course: CourseMap | None = None, board_state: BoardState | None = None,
                        near: int = NEAR, hedge: bool = HEDGE, wary: bool | None = WARY,
                        power_down: bool = True) -> Plan:
    """The best program for robot ``name`` against the others' predicted programs (same arguments as
    :func:`~referee.autopilot.search.plan_program`; robots more than ``near`` squares away stand still),
    and whether the robot powers down next turn (``power_down``: decide it, :mod:`.power`)."""
    plan = _plan_against(board, robots, name, hand, locked=locked, seed=seed, rules=rules, undealt=undealt,
                         reentry=reentry, max_steps=max_steps, course=course, board_state=board_state, near=near,
                         hedge=hedge, wary=wary)
    if power_down and powers_down(plan.predicted, plan.score, board.flag_count):
        return replace(plan, power_down=True)
    return plan


def _plan_against(board: Board, robots: Sequence[Robot], name: str, hand: Sequence[Card], *,
                  locked: Mapping[int, Card] | None, seed: int | str, rules: Rules | None,
                  undealt: Sequence[Card] | None, reentry: Mapping[str, int] | None, max_steps: int,
                  course: CourseMap | None, board_state: BoardState | None, near: int, hedge: bool,
                  wary: bool | None) -> Plan:
    course = course or course_map(board, rules)
    others = predict_programs(board, robots, name, hand, locked=locked, seed=seed, rules=rules,
                              reentry=reentry, course=course, board_state=board_state, max_steps=max_steps,
                              near=near)
    _, still_steps, against_steps = budgets(board)
    wary = big(board) if wary is None else wary
    still = plan_program(board, robots, name, hand, locked=locked, seed=seed, rules=rules, undealt=undealt,
                         reentry=reentry, max_steps=min(max_steps, still_steps), course=course,
                         board_state=board_state, wary=wary, order=big(board), slack=SLACK)
    if not others:
        return still
    # with the others moving the search branches on cards: it may spend twice the standing-still search
    budget = min(max_steps, 2 * still.steps + AGAINST_EXTRA_STEPS, against_steps)
    plan = plan_program(board, robots, name, hand, locked=locked, seed=seed, rules=rules, undealt=undealt,
                        others=others, reentry=reentry, max_steps=budget, course=course,
                        board_state=board_state, wary=wary, order=big(board), slack=SLACK)
    if not hedge:
        return plan
    if still.program == plan.program:
        return plan
    me = next(r for r in robots if r.name == name)

    def score_in(program: list[Card | None], world: Mapping[str, list[Card | None]]) -> Score:
        held = {*hand, *(locked or {}).values(), *(c for p in world.values() for c in p if c is not None)}
        left = list(undealt) if undealt is not None else [c for c in DECK if c not in held]
        after = TurnRun(board, list(robots), {**world, name: program}, rules=rules, seed=seed, undealt=left,
                        reentry=dict(reentry or {}), board_state=board_state, record=False).finish().robots
        return (score_wary if wary else score_robot)(course, me, next(r for r in after if r.name == name))

    # the worse of the two worlds (the others as predicted, the others standing still) of each program
    worst_against = max(plan.score, score_in(plan.program, {}))
    worst_still = max(still.score, score_in(still.program, others))
    return still if worst_still < worst_against else plan
