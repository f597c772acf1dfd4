"""Distance maps: how many registers a robot needs from a (square, facing) to a flag.

The moves are measured by the engine itself: for every square and facing, a lone robot runs one
register of each card type (register 1 of a turn), so belts, gears, pushers, walls, pits and the
edge all count as they do in play. A backward breadth-first search from the flag's square over
these moves gives the distance; a state that cannot reach the flag, or a robot destroyed on the
way, counts :data:`FAR`. Built once per board and kept in ``board.cache``.
"""

from __future__ import annotations

from collections import deque

from ..engine import DECK, Board, Robot, TurnRun
from ..engine.cards import CARD_TYPES, Card
from ..engine.geometry import N, Square, squares_of

#: the distance of a state from which the flag cannot be reached
FAR = 999

State = tuple[int, int, int]  # row, col, facing

#: one card of each type: what a register of that type does does not depend on its priority alone
_PROBE_CARDS: tuple[Card, ...] = tuple(next(c for c in DECK if c.type is t) for t in CARD_TYPES)
_PROBE = "autopilot-probe"


class CourseMap:
    """The one-register moves of a board and, per flag, the distance of every (square, facing)."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self.moves = _moves(board)
        self._dist: dict[int, dict[State, int]] = {}

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
        return min(self.distance(flag, sq, f) for f in range(4))


def course_map(board: Board) -> CourseMap:
    """The board's :class:`CourseMap`, built on first use and kept in ``board.cache``."""
    found = board.cache.get("autopilot.course")
    if not isinstance(found, CourseMap):
        found = board.cache["autopilot.course"] = CourseMap(board)
    return found


def _moves(board: Board) -> dict[State, tuple[State | None, ...]]:
    """For each state, where one register of each card type leaves a lone robot (None: destroyed)."""
    start = next(iter(squares_of(board.width, board.height)))
    base = TurnRun(board, [Robot(_PROBE, start, N)], {_PROBE: [None] * 5}, seed="autopilot", record=False)
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
