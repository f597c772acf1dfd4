"""Sluices: a square of the lower level that closes, in the register phases listed on it, level with
the upper level around it.

Open, the sluice is open floor at its own height (its ``level`` element, or the ground): robots from
the lower level cross it freely, and a robot coming onto it from a higher square falls in and takes 2
damage. Closed, it is floor at height ``upper``: the upper level drives across it, and from a lower
square its side is a ledge that cannot be climbed (a wall on the lower level); a robot leaving it for a
lower square drops and takes 2 damage. The sluice switches as the phase's cards are revealed, before
robots move; a robot on it when it closes is crushed, virtual ones too. ``levels.py`` leaves the
sluice's sides to this module. Lasers ignore heights, as everywhere.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .. import looks, shown
from ..board import Board, Element
from ..context import TurnContext
from ..geometry import NotationError, Square, opposite, square_name, step
from ..kinds import Field, Kind
from ..state import FLYING, Robot
from ..timing import CROSS, ENTER
from .levels import height

shown.cause("sluice", into="into a sluice")
shown.cause("ledge", into="off a ledge")


def closed(el: Element, phase: int | str) -> bool:
    return isinstance(phase, int) and phase in el["closed"]


def level(ctx: TurnContext, sq: Square) -> int:
    """The height of ``sq`` now: a closed sluice is at its upper height."""
    el = ctx.board.one("sluice", sq)
    if el is not None and closed(el, ctx.phase):
        return int(el["upper"])
    return height(ctx.board, sq)


def _climb(ctx: TurnContext, robot: Robot, d: int) -> bool:
    """No climbing onto a higher square across a sluice's side (a closed sluice seen from below, or the
    upper level seen from an open sluice)."""
    pos = robot.pos
    assert pos is not None
    return level(ctx, step(pos, d)) <= level(ctx, pos)


def _fall(ctx: TurnContext, robot: Robot, came_from: Square, d: int) -> None:
    """A robot arriving from a higher square next to it (onto an open sluice, or off a closed one) drops:
    2 damage."""
    pos = robot.pos
    assert pos is not None
    if abs(came_from[0] - pos[0]) + abs(came_from[1] - pos[1]) != 1:
        return  # teleported
    if level(ctx, came_from) > level(ctx, pos):
        if ctx.board.one("sluice", pos) is None:
            ctx.damage(robot, 2, "ledge")
        elif FLYING not in robot.statuses:  # a flying robot hovers over the open sluice
            ctx.damage(robot, 2, "sluice")


def close(ctx: TurnContext, phase: int) -> None:
    """As the phase's cards are revealed: a sluice closing now (open in the phase before; phase 1 follows
    phase 5) crushes every robot on it."""
    before = 5 if phase == 1 else phase - 1
    sluices = ctx.board.layer("sluice")
    for robot in list(ctx.robots):
        els = sluices.get(robot.pos) if robot.pos is not None else None
        if els and any(closed(el, phase) and not closed(el, before) for el in els):
            ctx.destroy(robot, "sluice")


def _install(board: Board, el: Element) -> None:
    """Hook the sluice's four sides (both faces) and the squares on both sides of them, each once
    (sluices side by side share sides)."""
    done: set[tuple[int, ...]] = board.cache.setdefault("sluice_hooks", set())
    at = el.at

    def hook(key: tuple[int, ...], fn: Callable[..., Any], type_: str) -> None:
        if key not in done:
            done.add(key)
            board.add_hook("move.ledges", key, fn, type_)

    hook(at, _fall, ENTER)
    for d in range(4):
        other = step(at, d)
        if board.on_board(other):
            hook((at[0], at[1], d), _climb, CROSS)
            hook((other[0], other[1], opposite(d)), _climb, CROSS)
            hook(other, _fall, ENTER)


def _finish(board: Board) -> None:
    for sq, els in board.layer("sluice").items():
        for el in els:
            if el["upper"] <= height(board, sq):
                raise NotationError(f"sluice {square_name(sq)}: upper ({el['upper']}) must be above the "
                                    f"square's own level ({height(board, sq)})")


SLUICE = Kind(
    name="sluice",
    doc=('a sluice: open floor at the square\'s own level, closed in the listed phases (`closed`), level then '
         'with the upper level (`upper`, its height); a robot coming onto an open sluice from above falls in '
         '(2 HP); closed, it is a wall for the lower level; a robot on it when it closes is crushed'),
    key='|S| sluice',
    fields=(Field("closed", "phases"), Field("upper", "int", required=False, default=1, lo=1, hi=3)),
    summary="lower-level floor that closes level with the upper level in the listed phases; closing crushes",
    group="floor",
    install=_install,
    finish=_finish,
    steps={"reveal.virtualizers": close},
    glyph=lambda e: "|S|",
    rank=145,
    legend=lambda e: f"sluice closed (height {e['upper']}) in phases {','.join(map(str, e['closed']))}",
)

# the pictures: closed (raised) in its phases (:mod:`referee.engine.looks`)
looks.declare("sluice", looks.active_in("closed"))
