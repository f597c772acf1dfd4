"""Rotating rooms (RoboFactory): a square block of floor that turns a quarter clockwise once a turn.

A room is written as the squares of one block (``room`` numbers the rooms of a board; every square
of the block carries the element, runs help): 2x2 up to 6x6, whole. Once a turn, in the rotating
rooms' step of register phase 5 (after the gears, before the crushers), every room with a robot in
it turns a quarter turn clockwise: each robot in it is carried to the square a quarter turn round the
room's centre and turned a quarter right, all at once. A room with no robot in it does not turn.
Nothing else turns with it: the floor elements, walls and devices on its squares stay where they are
(the room is a turntable under the robots). Carrying robots round a room does not count as entering
squares (as gears carry). A flying robot is above it. How often each room has turned is board state
(``{"rotating_room": {"1": 3}}``: quarter turns so far, 0-3).
"""

from __future__ import annotations

from .. import shown, timing
from ..board import Board
from ..context import TurnContext
from ..geometry import NotationError, Square, square_name
from ..kinds import Field, Kind
from ..state import FLYING

# what moved a robot, as the report and the story tell it (engine/shown.py)
shown.mover("carried", "rotating room", "carried round by a rotating room", step="board.rotating_rooms")

# the steps of the timing table only this kind acts in, each right after the step named
timing.declare("board.rotating_rooms", "rotating rooms", after="board.gears")


NAME = "rotating_room"


def rooms(board: Board) -> dict[int, tuple[Square, int]]:
    """Room number -> (its south-west corner, its size)."""
    found = board.cache.get(NAME)
    if found is None:
        squares: dict[int, list[Square]] = {}
        for sq, els in board.layer(NAME).items():
            if len(els) > 1:  # else the listing order would say which room the square is in
                raise NotationError(f"rotating room square {square_name(sq)} is listed {len(els)} times: a square "
                                    "belongs to one room")
            squares.setdefault(els[0]["room"], []).append(sq)
        found = {}
        for number, sqs in sorted(squares.items()):
            rows = [r for r, _ in sqs]
            cols = [c for _, c in sqs]
            corner = (min(rows), min(cols))
            size = max(rows) - corner[0] + 1
            block = {(corner[0] + i, corner[1] + j) for i in range(size) for j in range(size)}
            if size < 2 or size > 6 or max(cols) - corner[1] + 1 != size or set(sqs) != block:
                raise NotationError(f"rotating room {number} must be a whole square block of 2x2 to 6x6 squares, "
                                    f"from {square_name(corner)}")
            found[number] = (corner, size)
        board.cache[NAME] = found
    return found


def _finish(board: Board) -> None:
    rooms(board)


def turned(sq: Square, corner: Square, size: int) -> Square:
    """Where a square of the room lands after a quarter turn clockwise (north goes east)."""
    v, u = sq[0] - corner[0], sq[1] - corner[1]  # rows up, columns east, from the south-west corner
    return (corner[0] + (size - 1 - u), corner[1] + v)


def rotate(ctx: TurnContext, phase: int) -> None:
    if phase != 5:
        return
    for number, (corner, size) in rooms(ctx.board).items():
        inside = [r for r in ctx.robots if r.pos is not None and FLYING not in r.statuses
                  and 0 <= r.pos[0] - corner[0] < size and 0 <= r.pos[1] - corner[1] < size]
        if not inside:
            continue
        moves = [(r, turned(r.pos, corner, size)) for r in inside if r.pos is not None]
        for robot, target in moves:
            ctx.place(robot, target)
        for robot, target in moves:
            ctx.emit(robot, "carried", {"to": square_name(target)})
            ctx.turn(robot, 1)
        turns = (int(ctx.board_state.get(NAME, str(number), 0)) + 1) % 4
        ctx.board_state.set(NAME, str(number), turns)


ROTATING_ROOM = Kind(
    name=NAME,
    doc=('a square of rotating room `room` (1-9; a room is a whole square block, 2x2 to 6x6): once a turn, in '
         'register phase 5 after the gears, a room with a robot in it turns a quarter clockwise, carrying each '
         'robot in it round its centre and turning it a quarter right; the floor on it stays put; the turns so '
         'far are kept'),
    key='RR rotating room',
    fields=(Field("room", "int", required=False, default=1, lo=1, hi=9),),
    summary="a square of a rotating room: once a turn, in phase 5, the room turns its robots a quarter clockwise",
    finish=_finish,
    steps={"board.rotating_rooms": rotate},
    glyph=lambda e: f"R{e['room']}",
    rank=5,
    partners=({"kind": NAME, "at": "r3c4"}, {"kind": NAME, "at": "r4c3-r4c4"}),
)
