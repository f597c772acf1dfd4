"""Mechanical Arm: the robot touches a flag or repair site from one square away, orthogonally or
diagonally, with no wall between (diagonally: one of the two ways round the corner is open).

Touching counts as standing there: the archive moves to the site and the next flag counts, when
checkpoints are touched; at the end of the turn a robot on no site of its own is repaired by the
site it reaches (the best one), or draws an option on two wrenches when its orders say so.
"""

from __future__ import annotations

from ..board import Board
from ..context import TurnContext
from ..elements.checkpoints import repair_at, touch_site, wrenches_at
from ..geometry import DC, DR, E, N, S, Square, W
from ..hooks import Effect
from ..option_cards import OptionCard
from ..state import Robot

MECHANICAL_ARM = 'Mechanical Arm'

_DIAGONALS = ((N, E), (N, W), (S, E), (S, W))


def _open(board: Board, sq: Square, d: int) -> Square | None:
    if (sq[0], sq[1], d) in board.blocked:
        return None
    nxt = (sq[0] + DR[d], sq[1] + DC[d])
    return nxt if board.on_board(nxt) else None


def reach(board: Board, sq: Square) -> list[Square]:
    """The squares an arm at ``sq`` reaches, orthogonal ones first."""
    found = [nxt for d in (N, E, S, W) if (nxt := _open(board, sq, d)) is not None]
    for a, b in _DIAGONALS:
        target = (sq[0] + DR[a] + DR[b], sq[1] + DC[a] + DC[b])
        if not board.on_board(target):
            continue
        for first, second in ((a, b), (b, a)):
            mid = _open(board, sq, first)
            if mid is not None and _open(board, mid, second) == target:
                found.append(target)
                break
    return found


def touch(ctx: TurnContext, robot: Robot, phase: int) -> None:
    """The next flag within reach counts; otherwise, on no site of its own, the robot touches the first
    site it reaches (orthogonal ones first)."""
    if robot.pos is None or robot.powered_down:
        return
    board = ctx.board
    reached = reach(board, robot.pos)
    for sq in reached:
        flag = board.one("flag", sq)
        if flag is not None and flag["number"] == robot.flags + 1:
            touch_site(ctx, robot, sq)
            return
    if board.one("flag", robot.pos) or board.one("repair", robot.pos):
        return
    for sq in reached:
        if touch_site(ctx, robot, sq):
            return


def repair(ctx: TurnContext, robot: Robot) -> None:
    if robot.pos is None or robot.powered_down or wrenches_at(ctx.board, robot.pos):
        return
    best = max((wrenches_at(ctx.board, sq) for sq in reach(ctx.board, robot.pos)), default=0)
    if best:
        repair_at(ctx, robot, best)


EFFECT = Effect(MECHANICAL_ARM, "touches flags and repair sites one square away",
                                steps={"checkpoints.touch": touch, "end.repairs": repair})
CARD = OptionCard(EFFECT, rank=15, badge="MA")
