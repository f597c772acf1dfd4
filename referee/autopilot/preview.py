"""What a program does to one robot, the others standing still: for PREVIEW and HINT by mail.

:func:`trace_program` runs the program through the engine's stepping API and keeps the robot after
every register and at the end of the turn; :func:`best_programs` asks the search for the best
program of each first card type and keeps the ``count`` best of those (different openings, so a hint
offers real choices). :func:`path_picture` draws the board around the path as text, the register
numbers where the robot stands after each register. Pure, like the rest of the package.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..engine import DECK, Board, BoardState, Card, Robot, Rules, TurnRun
from ..engine.ascii import render
from ..engine.geometry import Square
from ..engine.programs import REGISTERS
from .course import CourseMap, course_map
from .score import Score, score_robot
from .search import DEFAULT_MAX_STEPS, Plan, _Search, plan_program, state_key


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
    return Trace(start, registers, end, score_robot(course or course_map(board), start, end))


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
    course = course or course_map(board)
    search = _Search(board, list(robots), me, hand, locked, {}, course, max_steps)
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


def path_picture(board: Board, trace: Trace, others: Sequence[Robot], margin: int = 2) -> str:
    """The rows of the board the path crosses (and ``margin`` more), as text, the other robots by their
    initials; on each square of the path ``@`` if the robot starts there and the numbers of the
    registers after which it stands there (``@``, ``2``, ``45``; more than three: ``+``)."""
    labels: dict[Square, str] = {}
    if trace.start.pos is not None:
        labels[trace.start.pos] = "@"
    for i, robot in enumerate(trace.registers, start=1):
        if robot.pos is not None:
            labels[robot.pos] = labels.get(robot.pos, "") + str(i)
    lines = render(board, [r for r in others if r.name != trace.start.name], legend=False).split("\n")
    for (row, col), label in labels.items():
        at, left = 2 + 2 * (board.height - row), 4 + 4 * (col - 1)
        label = label if len(label) <= 3 else label[:2] + "+"
        lines[at] = lines[at][:left] + f"{label:<3}" + lines[at][left + 3:]
    if not labels:
        return "\n".join(lines)
    rows = [sq[0] for sq in labels]
    top, bottom = min(board.height, max(rows) + margin), max(1, min(rows) - margin)
    # render(): the column numbers, the top edge, then per row (top first) the row and the line under it
    first, last = 2 + 2 * (board.height - top), 2 + 2 * (board.height - bottom) + 1
    return "\n".join([lines[0], lines[first - 1], *lines[first:last + 1], lines[-1]])
