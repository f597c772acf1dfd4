"""Trapdoors and bridges: floors that are a pit in some register phases and solid in the others.

A trapdoor is open (a pit) in the phases listed on it and closed (open floor) in the rest; a
bridge is the other way round: closed (floor) in the phases printed on it, open (a pit) in the
rest. They switch at the beginning of each register phase, before any robot moves: a robot
standing on one as it opens falls. A robot entering an open one, by any move, falls at once.
"""

from __future__ import annotations

from .. import looks, shown
from ..board import Board, Element
from ..context import TurnContext
from ..geometry import Square
from ..hooks import on
from ..kinds import Field, Kind
from ..state import Robot

shown.cause("trapdoor", into="through a trapdoor")
shown.cause("bridge", into="off a bridge")


def _open(ctx: TurnContext, sq: Square | None) -> bool:
    """Whether a trapdoor or bridge on ``sq`` is a pit in the current register phase."""
    if sq is None or not isinstance(ctx.phase, int):
        return False
    for el in ctx.board.layer("trapdoor").get(sq, ()):
        if ctx.phase in el["phases"]:
            return True
    return any(ctx.phase not in el["phases"] for el in ctx.board.layer("bridge").get(sq, ()))


def fall_in(ctx: TurnContext, robot: Robot, came_from: Square, d: int) -> None:
    if _open(ctx, robot.pos):
        ctx.destroy(robot, _cause(ctx, robot.pos))


def _cause(ctx: TurnContext, sq: Square | None) -> str:
    return "trapdoor" if sq in ctx.board.layer("trapdoor") else "bridge"


def switch(ctx: TurnContext, phase: int) -> None:
    """The phase begins: every robot on a trapdoor or bridge that is open now falls."""
    hinged = _hinged(ctx.board)
    for robot in list(ctx.robots):
        if robot.pos in hinged and _open(ctx, robot.pos):
            ctx.destroy(robot, _cause(ctx, robot.pos))


def _hinged(board: Board) -> frozenset[Square]:
    """The squares of the board's trapdoors and bridges (made once per board)."""
    found: frozenset[Square] | None = board.cache.get("trapdoor squares")
    if found is None:
        found = board.cache["trapdoor squares"] = frozenset({*board.layer("trapdoor"), *board.layer("bridge")})
    return found


def _phases(e: Element) -> str:
    return ",".join(map(str, e["phases"]))


TRAPDOOR = Kind(
    name="trapdoor",
    doc=('a trapdoor pit: open (a pit) in the listed register phases, closed floor in the others; it opens as '
         'the phase begins, so a robot standing on it falls'),
    key='[_] trapdoor',
    fields=(Field("phases", "phases"),),
    summary="a pit in the listed register phases (opening as the phase begins), open floor in the others",
    group="floor",
    hooks=(on("move.pits", fall_in),),
    steps={"reveal.virtualizers": switch},
    glyph=lambda e: "[_]",
    rank=131,
    legend=lambda e: f"trapdoor open in phases {_phases(e)}",
)

BRIDGE = Kind(
    name="bridge",
    doc=('a bridge: closed (floor) only in the register phases printed on it, a pit in the others; it switches '
         'as the phase begins, so a robot standing on it as it opens falls'),
    key='=== bridge',
    fields=(Field("phases", "phases"),),
    summary="open floor in the listed register phases, a pit in the others (switching as the phase begins)",
    group="floor",
    hooks=(on("move.pits", fall_in),),
    steps={"reveal.virtualizers": switch},
    glyph=lambda e: "===",
    rank=132,
    legend=lambda e: f"bridge closed in phases {_phases(e)}",
)

# the pictures: a trapdoor open (a pit) in its phases, a bridge open in the others (:mod:`referee.engine.looks`)
looks.declare("trapdoor", looks.active_in("phases"))
looks.declare("bridge", lambda el, phase, state: isinstance(phase, int) and phase not in el["phases"])
