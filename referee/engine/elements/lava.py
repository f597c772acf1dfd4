"""Lava pits: pits that erupt.

A robot entering a lava pit is destroyed, as in any pit. In the register phases listed on it the
pit erupts when lasers fire (after flamers): a robot on one of the four squares beside it takes 1
damage; with ``reach = "around"`` (the rule texts' expert rule) on any of the eight squares around
it. The lava flies over walls and robots: each robot in reach is hit once per erupting pit.
"""

from __future__ import annotations

from .. import looks, shown, timing
from ..board import Board, Element
from ..context import TurnContext
from ..geometry import Square
from ..hooks import on
from ..kinds import Field, Kind
from ..state import Robot

shown.cause("lava pit", into="into a lava pit")
shown.cause("lava")

# the steps of the timing table only this kind acts in, each right after the step named
timing.declare("lasers.lava", "lava pits erupt", after="lasers.napalm")


SIDES = ((1, 0), (0, 1), (-1, 0), (0, -1))
AROUND = (*SIDES, (1, 1), (1, -1), (-1, 1), (-1, -1))


def fall(ctx: TurnContext, robot: Robot, came_from: Square, d: int) -> None:
    ctx.destroy(robot, "lava pit")


def _erupting(board: Board, phase: int) -> dict[Square, int]:
    """Square -> how many lava pools erupting in ``phase`` reach it (made once per board and phase; read only)."""
    key = f"lava {phase}"
    by_square: dict[Square, int] | None = board.cache.get(key)
    if by_square is None:
        by_square = board.cache[key] = {}
        for sq, els in board.layer("lava").items():
            for el in els:
                if phase in el["phases"]:
                    for dr, dc in (AROUND if el["reach"] == "around" else SIDES):
                        near = (sq[0] + dr, sq[1] + dc)
                        by_square[near] = by_square.get(near, 0) + 1
    return by_square


def erupt(ctx: TurnContext, phase: int) -> None:
    by_square = _erupting(ctx.board, phase)
    if not by_square:
        return
    for robot in ctx.robots:
        hits = by_square.get(robot.pos) if robot.pos is not None else None
        if hits:
            ctx.damage(robot, hits, "lava")


def _legend(e: Element) -> str:
    return f"lava pit erupts in phases {','.join(map(str, e['phases']))}" + (
        ", all 8 squares around" if e["reach"] == "around" else "")


LAVA = Kind(
    name="lava",
    doc=('a lava pit: a pit (a robot entering it is destroyed) that erupts in the listed register phases when '
         'lasers fire: 1 damage to a robot on each of the 4 squares beside it, or all 8 around it with `reach = '
         '"around"`; walls do not stop it'),
    key='@@@ lava pit',
    fields=(Field("phases", "phases"),
            Field("reach", "choice", required=False, default="sides", choices=("sides", "around"))),
    summary="a pit that erupts in the listed phases: 1 damage to robots beside it (or all around it)",
    group="floor",
    hooks=(on("move.pits", fall),),
    steps={"lasers.lava": erupt},
    glyph=lambda e: "@@@",
    rank=133,
    legend=_legend,
)

# the pictures: erupting in its phases (:mod:`referee.engine.looks`)
looks.declare("lava", looks.active_in("phases"))
