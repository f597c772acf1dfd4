"""Tilted ground (sand, the slopes of a crater): a robot ending its move there slips down one square.

Each square slopes down toward ``dir``. A robot whose movement card ends on it slips one square that
way, keeping its facing; only one square, even when it lands on more tilted ground. A wall or a
real robot in the way holds it (it does not push); slipping into a pit or off the board destroys
it. A robot that only turns, or that is pushed by a robot or conveyed onto the slope, stays. Robots a
pusher or hydraulic pusher pushes onto it slip too (the timing text's "get affected by them (again!)"),
all at once, as belts move robots (of two slipping into one square neither goes); not under the house
rule ``pushed_not_affected``. In a crater's corner (``corner``: ``ne``, ``se``, ``sw`` or ``nw``) "the robot slips
down diagonally" (rules version 4; house rule ``crater_straight``, version 3: toward ``dir`` as any slope).
"""

from __future__ import annotations

from .. import shown
from ..board import Board
from ..cards import Card
from ..context import TurnContext
from ..conveying import convey, register_pushed_onto
from ..geometry import ARROWS, DC, DR, NotationError, opposite, square_name
from ..hooks import on
from ..kinds import Field, Kind
from ..movement import SLIDE, MovePlan, enter, try_step
from ..state import Robot

# what moved a robot, as the report and the story tell it (engine/shown.py)
shown.mover("slide", "tilted ground", "slipped down tilted ground", on="sand")

#: a crater's corner -> its two downhill ways (rows up, columns right), north and south first
CORNERS = {"ne": (0, 1), "se": (2, 1), "sw": (2, 3), "nw": (0, 3)}


def slip(ctx: TurnContext, robot: Robot, card: Card, plan: MovePlan) -> None:
    els = ctx.board.layer("sand").get(robot.pos) if robot.pos is not None else None
    if not els:
        return
    ctx.flush_moves()
    corner = els[0]["corner"]
    if corner is not None and not ctx.rules.crater_straight:
        slip_diagonally(ctx, robot, corner)
        return
    try_step(ctx, robot, els[0]["dir"], SLIDE, push=False)


def slip_diagonally(ctx: TurnContext, robot: Robot, corner: str) -> bool:
    """A robot on a crater's corner slips one square diagonally downhill, keeping its facing: a wall on any of
    the four sides meeting at the corner it slips across, or a real robot on the square, holds it; off the
    board or into a pit it is destroyed. Whether it moved."""
    pos = robot.pos
    assert pos is not None
    a, b = CORNERS[corner]
    target = (pos[0] + DR[a] + DR[b], pos[1] + DC[a] + DC[b])
    board = ctx.board
    if any(board.wall(sq, d) for sq, d in ((pos, a), (pos, b), (target, opposite(a)), (target, opposite(b)))):
        return False
    if not board.on_board(target):
        if ctx.rules.edge == "fence":
            ctx.fence(robot)
            return False
        ctx.destroy(robot, "edge")
        return False
    if not robot.virtual and ctx.real_robot_at(target, exclude=robot) is not None:
        return False
    ctx.place(robot, target)
    ctx.emit(robot, "slide", {"to": square_name(target)})
    enter(ctx, robot, pos, a)
    return robot.pos is not None


def pushed(ctx: TurnContext, moved: list[tuple[Robot, int]]) -> None:
    """Robots pushers pushed onto the slope slip one square downhill, all at once (a crater's corner slips
    diagonally, after the straight slips)."""
    layer = ctx.board.layer("sand")
    straight = ctx.rules.crater_straight
    slips = [(robot, layer[robot.pos][0]["dir"]) for robot, _ in moved if robot.pos in layer
             and (straight or layer[robot.pos][0]["corner"] is None)]
    convey(ctx, slips, {}, False, "slide")
    if not straight:
        for robot, _ in moved:
            if robot.pos in layer and (corner := layer[robot.pos][0]["corner"]) is not None:
                slip_diagonally(ctx, robot, corner)


def _corner_fits(board: Board) -> None:
    for sq, els in board.layer("sand").items():
        corner = els[0]["corner"]
        if corner is not None and els[0]["dir"] not in CORNERS[corner]:
            raise NotationError(f"sand {square_name(sq)}: a corner {corner} slopes {' and '.join(corner.upper())}, "
                                f"so its dir is one of them")


register_pushed_onto("sand", pushed)


SAND = Kind(
    name="sand",
    doc=('tilted ground (sand) sloping down toward `dir`: a robot whose movement card ends on it slips one '
         'square downhill, keeping its facing (a wall or a robot holds it); a crater\'s `corner` (`ne`, `se`, `sw`, '
         '`nw`; `dir` one of its two ways) slips diagonally'),
    key='.v. sand',
    fields=(Field("dir", "dir"),
            Field("corner", "choice", required=False, choices=tuple(CORNERS), compass=True)),
    finish=_corner_fits,
    summary="tilted ground sloping toward dir: a movement card ending on it slips one square downhill",
    group="floor",
    hooks=(on("move.ramp_slide", slip),),
    glyph=lambda e: f".{ARROWS[e['dir']]}.",
    rank=144,
    legend=lambda e: f"sand sloping {'NESW'[e['dir']]}",
)
