"""Portals (RoboFactory): a robot entering a portal comes out of the linked one at once.

Portals are linked in pairs: the two portals with the same ``pair`` number. A robot that enters a
portal by any move (its card, a push, a belt, a pull) is put on the linked portal, facing as it
was, and a card goes on from there the same way. If a real robot stands on the linked portal the
portal does not work (for a real robot): the robot stays on the portal it entered, as on floor.
Coming out of a portal is not entering one, so a robot never bounces back and forth; every jump
needs a move into a portal, and moves are counted, so portal into portal always ends. A robot
pushed into a portal goes through it; the robot pushing it follows only onto the square it left.
Beams cross portals as floor.
"""

from __future__ import annotations

from .. import reach, shown, timing
from ..board import Board
from ..context import TurnContext
from ..events import register_wording
from ..geometry import NotationError, Square, square_name
from ..hooks import on
from ..kinds import Field, Kind
from ..state import Robot

# what moved a robot, as the report and the story tell it (engine/shown.py)
shown.mover("portal", "portal", "through a portal")

# the steps of the timing table only this kind acts in, each right after the step named
timing.declare("move.portals", timing.ENTER, "portals move robots to the linked portal", after="move.ramps")


register_wording("portal", "through portal to {to}")


def _link(board: Board) -> None:
    """Pair the portals; a pair number used by one portal only, or by three, is an error."""
    pairs: dict[int, list[Square]] = {}
    for sq, els in sorted(board.layer("portal").items()):
        pairs.setdefault(els[0]["pair"], []).append(sq)
    links: dict[Square, Square] = {}
    for number, squares in sorted(pairs.items()):
        if len(squares) != 2:
            raise NotationError(f"portal pair {number} has {len(squares)} portal(s) "
                                f"({', '.join(map(square_name, squares))}); a pair needs exactly two")
        a, b = squares
        links[a], links[b] = b, a
    board.cache["portal links"] = links


def jump(ctx: TurnContext, robot: Robot, came_from: Square, d: int) -> None:
    pos = robot.pos
    assert pos is not None
    exit_ = ctx.board.cache["portal links"][pos]
    if not robot.virtual and ctx.real_robot_at(exit_, exclude=robot) is not None:
        return
    ctx.emit(robot, "portal", {"to": square_name(exit_)})
    ctx.place(robot, exit_)


# how far it reaches (ruling 14.8)
reach.declare("portal", reach.Reach(reach.WHOLE_COURSE, "14.8",
                                   what="puts a robot on its linked portal, wherever on the course"))


PORTAL = Kind(
    name="portal",
    doc=('a portal, linked to the other portal with the same `pair` number: a robot entering it by any move '
         'comes out of the linked portal at once (its card goes on from there), unless a robot stands there'),
    key='O1 portal',
    fields=(Field("pair", "int", lo=1, hi=9),),
    summary="a portal: a robot entering it comes out of the portal with the same pair number, unless occupied",
    group="floor",
    hooks=(on("move.portals", jump),),
    glyph=lambda e: f"O{e['pair']}",
    rank=154,
    finish=_link,
    partners=({"kind": "portal", "at": "r1c1", "pair": 1},),
    legend=lambda e: f"portal pair {e['pair']}",
)
