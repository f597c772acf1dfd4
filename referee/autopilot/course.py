"""Distance maps: how many registers a robot needs from a (square, facing) to a flag.

The moves are measured by the engine itself: for every square and facing, a lone robot runs one register of
each card type (register 1 of a turn), so belts, gears, pushers, walls, pits and the edge all count as they do
in play. A backward breadth-first search from the flag's square over these moves gives the distance; a state
that cannot reach the flag, or a robot destroyed on the way, counts :data:`FAR`. Built once per board and kept
in ``board.cache``.

The moves are measured under the rules the game plays (its rules version and house rules: a turn dealt under
version 2 is resolved by version 2's ways), and kept per rules. They are the costly part (seconds for a big
course). :func:`course_key` names them by the board's content and those rules, and :func:`moves_to_data` /
:func:`moves_from_data` turn them into plain JSON data, so that a caller outside this pure package
(:mod:`referee.boards.coursemaps`) can keep them on disk and hand them back: ``CourseMap(board, moves=...)``.
"""

from __future__ import annotations

import hashlib
import json
from collections import deque
from typing import Any

from ..engine import DECK, Board, Robot, Rules, TurnRun
from ..engine.cards import CARD_TYPES, Card
from ..engine.geometry import N, Square, squares_of

#: the distance of a state from which the flag cannot be reached
FAR = 999

State = tuple[int, int, int]  # row, col, facing

#: one card of each type: what a register of that type does does not depend on its priority alone
_PROBE_CARDS: tuple[Card, ...] = tuple(next(c for c in DECK if c.type is t) for t in CARD_TYPES)
_PROBE = "autopilot-probe"


class CourseMap:
    """The one-register moves of a board under ``rules`` (this engine's by default) and, per flag, the distance of
    every (square, facing)."""

    def __init__(self, board: Board, moves: dict[State, tuple[State | None, ...]] | None = None,
                 rules: Rules | None = None) -> None:
        self.board = board
        self.rules = rules or Rules()
        self.moves = _moves(board, self.rules) if moves is None else moves
        self._dist: dict[int, dict[State, int]] = {}
        #: (flag, square) -> :meth:`best_distance` (asked for every program's end: the archive marker)
        self._best: dict[tuple[int, Square | None], int] = {}

    def distances(self, flag: int) -> dict[State, int]:
        """Registers needed to end a phase on flag ``flag``'s square, by (row, col, facing)."""
        found = self._dist.get(flag)
        if found is None:
            found = self._dist[flag] = _backward(self.moves, self.board.flags[flag])
        return found

    def distance(self, flag: int, sq: Square | None, facing: int) -> int:
        """Registers from ``sq`` facing ``facing`` to ``flag`` (0 on it); :data:`FAR` if unknown."""
        if sq is None or flag not in self.board.flags:
            return FAR
        return self.distances(flag).get((sq[0], sq[1], facing), FAR)

    def best_distance(self, flag: int, sq: Square | None) -> int:
        """The distance from ``sq`` facing its best way (an archive marker: re-entry picks the facing)."""
        found = self._best.get((flag, sq))
        if found is None:
            found = self._best[(flag, sq)] = min(self.distance(flag, sq, f) for f in range(4))
        return found


#: ``board.cache`` key: the board's course maps by the rules they were measured under
CACHE_KEY = "autopilot.course"


def kept_maps(board: Board) -> dict[Rules, CourseMap]:
    """The course maps of ``board`` kept in ``board.cache``, by the rules each was measured under."""
    found: dict[Rules, CourseMap] | None = board.cache.get(CACHE_KEY)
    if not isinstance(found, dict):
        found = board.cache[CACHE_KEY] = {}
    return found


def course_map(board: Board, rules: Rules | None = None) -> CourseMap:
    """The board's :class:`CourseMap` under ``rules`` (this engine's by default), built on first use and kept in
    ``board.cache``."""
    rules = rules or Rules()
    maps = kept_maps(board)
    found = maps.get(rules)
    if found is None:
        found = maps[rules] = CourseMap(board, rules=rules)
    return found


#: raise when the meaning of the stored moves changes
MOVES_FORMAT = 1


def course_key(board: Board, rules: Rules | None = None) -> str:
    """A name for the board's moves: a hash of its content, the rules they are measured under (the rules version
    and the house rules: this engine's by default) and the probe cards."""
    rules = rules or Rules()
    content = json.dumps({"spec": board.spec, "rules": rules.version, "house": rules.to_dict(), "format": MOVES_FORMAT,
                          "probe": [str(c) for c in _PROBE_CARDS]}, sort_keys=True, default=str)
    return hashlib.sha256(content.encode()).hexdigest()[:32]


def moves_to_data(moves: dict[State, tuple[State | None, ...]]) -> list[Any]:
    """The moves as JSON data: ``[[row, col, facing, [[row, col, facing] or null, ...]], ...]``."""
    return [[*state, [list(end) if end is not None else None for end in ends]] for state, ends in moves.items()]


def moves_from_data(data: Any, board: Board) -> dict[State, tuple[State | None, ...]]:
    """The moves back from :func:`moves_to_data`; ValueError if the data is not moves of ``board``."""
    moves: dict[State, tuple[State | None, ...]] = {}
    try:
        for row, col, facing, ends in data:
            if len(ends) != len(_PROBE_CARDS):
                raise ValueError("wrong number of moves")
            moves[(int(row), int(col), int(facing))] = tuple(
                None if end is None else (int(end[0]), int(end[1]), int(end[2])) for end in ends)
    except (TypeError, IndexError) as exc:
        raise ValueError(f"not course moves: {exc}") from None
    expected = {(sq[0], sq[1], f) for sq in squares_of(board.width, board.height) if board.on_board(sq)
                for f in range(4)}
    if set(moves) != expected:
        raise ValueError("the moves are not of this board's squares")
    return moves


def _moves(board: Board, rules: Rules) -> dict[State, tuple[State | None, ...]]:
    """For each state, where one register of each card type leaves a lone robot (None: destroyed) under ``rules``."""
    start = next(iter(squares_of(board.width, board.height)))
    base = TurnRun(board, [Robot(_PROBE, start, N)], {_PROBE: [None] * 5}, rules=rules, seed="autopilot",
                   record=False)
    moves: dict[State, tuple[State | None, ...]] = {}
    for sq in squares_of(board.width, board.height):
        if not board.on_board(sq):
            continue
        for facing in range(4):
            ends: list[State | None] = []
            for card in _PROBE_CARDS:
                run = base.copy()
                robot = run.robots[0]
                robot.pos, robot.facing = sq, facing
                run.set_card(_PROBE, 1, card)
                run.step()
                after = run.robots[0]
                ends.append(None if after.pos is None else (after.pos[0], after.pos[1], after.facing))
            moves[(sq[0], sq[1], facing)] = tuple(ends)
    return moves


def _backward(moves: dict[State, tuple[State | None, ...]], flag: Square) -> dict[State, int]:
    into: dict[State, list[State]] = {}
    for state, ends in moves.items():
        for end in ends:
            if end is not None:
                into.setdefault(end, []).append(state)
    dist = {(flag[0], flag[1], f): 0 for f in range(4)}
    todo = deque(dist)
    while todo:
        state = todo.popleft()
        for before in into.get(state, ()):
            if before not in dist:
                dist[before] = dist[state] + 1
                todo.append(before)
    return dist
