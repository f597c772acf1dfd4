"""Levels, ledges and ramps (PBEM board elements).

Squares carry a height (``level`` elements; unlisted squares are at height 0). A side between two
squares of different height is a ledge: it cannot be climbed, and dropping over it costs 2 HP on
landing. A ramp square (``dir`` = uphill) joins its own height to the height above on its uphill
side: a robot may climb off its top and drop onto its top for free. Climbing, the ramp costs a square
of movement, and a robot whose card ends on a ramp it climbed onto slides back down one square.
Lasers ignore heights. A square whose height changes during the game (a sluice, ``sluices.py``) is
left out here: its sides and the drops onto and off it are that element's.
"""

from __future__ import annotations

from .. import shown
from ..board import Board
from ..cards import Card
from ..context import TurnContext
from ..geometry import ARROWS, DC, DR, NotationError, Square, opposite, square_name
from ..hooks import on
from ..kinds import Field, Kind
from ..movement import MovePlan
from ..state import Robot
from ..timing import CROSS, ENTER

# what moved a robot, as the report and the story tell it (engine/shown.py)
shown.mover("slide", "ramp", "slid back down a ramp", on="ramp")

shown.cause("ledge", into="off a ledge")


def height(board: Board, sq: Square) -> int:
    els = board.layers.get("level", {}).get(sq)
    return els[0]["height"] if els else 0


def _ramp_dir(board: Board, sq: Square) -> int | None:
    els = board.layers.get("ramp", {}).get(sq) or board.layers.get("fast_ramp", {}).get(sq)  # fast ramps: belts
    return els[0]["dir"] if els else None


#: kinds whose squares change height during the game: they handle their own sides
MOVABLE = ("sluice",)


def movable(board: Board, sq: Square) -> bool:
    return any(sq in board.layers.get(name, {}) for name in MOVABLE)


def find_ledges(board: Board) -> None:
    """Find every ledge once the whole board is known, and hook it into movement."""
    if board.cache.get("ledges_done"):
        return
    board.cache["ledges_done"] = True
    for kind, field in (("level", "height"), ("ramp", "dir")):  # else the listing order would pick one
        for sq, els in board.layer(kind).items():
            if len({el[field] for el in els}) > 1:
                raise NotationError(f"{kind} {square_name(sq)} is listed with two {field}s: a square has one")
    for r in range(1, board.height + 1):
        for c in range(1, board.width + 1):
            sq = (r, c)
            for d in range(4):
                other = (r + DR[d], c + DC[d])
                if not board.on_board(other):
                    continue
                lo, hi = height(board, sq), height(board, other)
                if hi > lo and _ramp_dir(board, sq) != d and not movable(board, sq) and not movable(board, other):
                    board.add_hook("move.ledges", (r, c, d), _cannot_climb, CROSS)
    for r in range(1, board.height + 1):
        for c in range(1, board.width + 1):
            if _has_higher_neighbour(board, (r, c)):
                board.add_hook("move.ledges", (r, c), _drop, ENTER)


def _has_higher_neighbour(board: Board, sq: Square) -> bool:
    return any(board.on_board((sq[0] + DR[d], sq[1] + DC[d])) and
               height(board, (sq[0] + DR[d], sq[1] + DC[d])) > height(board, sq) for d in range(4))


def _cannot_climb(ctx: TurnContext, robot: Robot, d: int) -> bool:
    return False


def _drop(ctx: TurnContext, robot: Robot, came_from: Square, d: int) -> None:
    """A robot landing here from a higher square next to it (not off a ramp's top) takes 2 damage."""
    board = ctx.board
    pos = robot.pos
    assert pos is not None
    if abs(came_from[0] - pos[0]) + abs(came_from[1] - pos[1]) != 1:
        return  # teleported: heights are ignored
    if height(board, came_from) <= height(board, pos) or movable(board, came_from) or movable(board, pos):
        return
    if _ramp_dir(board, pos) == opposite(d):
        return  # stepping down onto the top of a ramp
    ctx.damage(robot, 2, "ledge")


def _slide(ctx: TurnContext, robot: Robot, card: Card, plan: MovePlan) -> None:
    """A robot whose card ends on a ramp it climbed onto slides back down one square."""
    pos = robot.pos
    if pos is None or pos == plan.start:
        return
    uphill = _ramp_dir(ctx.board, pos)
    if uphill is None or plan.direction != uphill:
        return
    down = opposite(uphill)
    below = (pos[0] + DR[down], pos[1] + DC[down])
    if (pos[0], pos[1], down) in ctx.board.blocked or not ctx.board.on_board(below):
        return
    if not robot.virtual and ctx.real_robot_at(below, exclude=robot) is not None:
        return
    ctx.flush_moves()
    ctx.place(robot, below)
    ctx.emit(robot, "slide", {"to": square_name(below)})


LEVEL = Kind(
    name="level",
    doc=('raises the square to a height; unlisted squares are at height 0; a side between two heights is a '
         'ledge: it cannot be climbed, and dropping over it costs 2 HP'),
    key=' 1  height',
    fields=(Field("height", "int", required=False, default=1, lo=1, hi=3),),
    summary="raises the square to a height (ground is 0); sides between heights are ledges",
    finish=find_ledges,
    glyph=lambda e: f" {e['height']} ",
    rank=1,
)

RAMP = Kind(
    name="ramp",
    doc=("a ramp rising toward `dir`: joins its square's height to the height beyond its uphill side; a card "
         'ending on it after climbing slides back one square'),
    key='R^ ramp',
    fields=(Field("dir", "dir"),),
    summary="a ramp rising toward dir, joining its height to the height beyond its top",
    group="floor",
    hooks=(on("move.ramp_slide", _slide),),
    finish=find_ledges,
    glyph=lambda e: f"R{ARROWS[e['dir']]}",
    rank=61,
)
