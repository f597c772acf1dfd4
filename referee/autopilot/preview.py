"""What a program does to one robot, the others standing still: for PREVIEW and HINT by mail.

:func:`trace_program` runs the program through the engine's stepping API and keeps the robot after
every register and at the end of the turn; :func:`best_programs` asks the search for the best
program of each first card type and keeps the ``count`` best of those (different openings, so a hint
offers real choices). :func:`path_picture` writes the path as a plain route: where the robot stands
after each register. Pure, like the rest of the package.
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..engine import DECK, Board, BoardState, Card, Robot, Rules, TurnRun
from ..engine.geometry import DIR_NAMES, square_name
from ..engine.programs import REGISTERS
from .course import CourseMap, course_map
from .score import Score, score_robot
from .search import DEFAULT_MAX_STEPS, Plan, Search, plan_program, state_key


@dataclass(frozen=True)
class Trace:
    """The robot at the start, after each register that ran, and at the end of the turn."""

    start: Robot
    registers: list[Robot]
    end: Robot
    score: Score


def _base(board: Board, robots: Sequence[Robot], name: str, program: Sequence[Card | None], seed: int | str,
          rules: Rules | None, undealt: Sequence[Card] | None, reentry: Mapping[str, int] | None,
          board_state: BoardState | None) -> TurnRun:
    if undealt is None:
        held = {c for c in program if c is not None}
        undealt = [c for c in DECK if c not in held]
    return TurnRun(board, list(robots), {name: list(program)}, rules=rules, seed=seed, undealt=list(undealt),
                   reentry=dict(reentry or {}), record=False, board_state=board_state)


def trace_program(board: Board, robots: Sequence[Robot], name: str, program: Sequence[Card | None], *,
                  seed: int | str = 0, rules: Rules | None = None, undealt: Sequence[Card] | None = None,
                  reentry: Mapping[str, int] | None = None, course: CourseMap | None = None,
                  board_state: BoardState | None = None) -> Trace:
    """Robot ``name`` playing ``program`` (five registers), every other robot standing still, from
    ``board_state`` (what the board remembers at the start of the turn, as the real turn starts)."""
    run = _base(board, robots, name, program, seed, rules, undealt, reentry, board_state)
    start = next(r for r in robots if r.name == name)
    registers = []
    while not run.done:
        run.step()
        registers.append(run.ctx.by_name[name].copy())
    end = run.finish().robots[[r.name for r in run.robots].index(name)]
    return Trace(start, registers, end, score_robot(course or course_map(board, rules), start, end))


def best_programs(board: Board, robots: Sequence[Robot], name: str, hand: Sequence[Card], *,
                  locked: Mapping[int, Card] | None = None, seed: int | str = 0, rules: Rules | None = None,
                  undealt: Sequence[Card] | None = None, count: int = 3, max_steps: int = DEFAULT_MAX_STEPS,
                  course: CourseMap | None = None, board_state: BoardState | None = None) -> list[Plan]:
    """Up to ``count`` programs, best first: for each card type the robot may play in its first free
    register, the best program opening with it (by the autopilot's score; the others stand still), the
    turn starting from ``board_state`` as the real one does."""
    locked = dict(locked or {})
    me = next(r for r in robots if r.name == name)
    if undealt is None:
        held = {*hand, *locked.values()}
        undealt = [c for c in DECK if c not in held]
    course = course or course_map(board, rules)
    search = Search(board, list(robots), me, hand, locked, {}, course, max_steps)
    run = TurnRun(board, list(robots), {name: [locked.get(r) for r in range(1, REGISTERS + 1)]}, rules=rules,
                  seed=seed, undealt=list(undealt), record=False, board_state=board_state)
    reg = 1
    while reg in locked and not run.done:
        run.step()
        reg += 1
    choices = [g for g, n in enumerate(search.counts) if n]
    if me.pos is None or me.powered_down or run.done or reg > REGISTERS or not choices:
        return [plan_program(board, robots, name, hand, locked=locked, seed=seed, rules=rules, undealt=undealt,
                             course=course, board_state=board_state)]
    state = state_key(run, reg)
    found: list[tuple[Score, tuple[int | None, ...]]] = []
    for group in choices:
        counts = search.counts
        left = (*counts[:group], counts[group] - 1, *counts[group + 1:])
        score, keys = search.play(run, state, group, counts, left)
        found.append((score, (group, *keys)))
    found.sort(key=lambda item: item[0])
    plans = []
    for score, keys in found[:count]:
        program = search.program(keys)
        final = _base(board, robots, name, program, seed, rules, undealt, None, board_state)
        after = final.finish().robots[[r.name for r in final.robots].index(name)]
        plans.append(Plan(program, score, after, search.steps, search.complete))
    return plans


def _registers(numbers: Sequence[int]) -> str:
    if len(numbers) == 1:
        return f"after {numbers[0]}"
    return f"after {numbers[0]}-{numbers[-1]}"


def path_picture(board: Board, trace: Trace, others: Sequence[Robot], width: int = 78) -> str:
    """The robot's path as a plain route, where it starts (``@``) and where it stands after each register,
    registers that leave it on one square together: ``@ r4c2 -> after 1: r4c4 -> after 2-4: r4c5 facing S ->
    after 5: destroyed``, wrapped to ``width``. (It replaced a text map of the board whose squares held
    register numbers, which read as a puzzle; the attached picture draws the path on the board.)"""
    steps: list[tuple[list[int], str]] = []
    for i, robot in enumerate(trace.registers, start=1):
        where = (f"{square_name(robot.pos)} facing {DIR_NAMES[robot.facing]}" if robot.pos is not None
                 else "destroyed")
        square = where.split(" ")[0]
        if steps and steps[-1][1].split(" ")[0] == square:
            steps[-1] = ([*steps[-1][0], i], where)
        else:
            steps.append(([i], where))
    start = trace.start
    first = f"@ {square_name(start.pos)} facing {DIR_NAMES[start.facing]}" if start.pos is not None else "@ -"
    parts = [first, *(f"{_registers(regs)}: {where}" for regs, where in steps)]
    return "\n".join(textwrap.wrap(" -> ".join(parts), width - 2, initial_indent="  ", subsequent_indent="  ",
                                    break_on_hyphens=False))
