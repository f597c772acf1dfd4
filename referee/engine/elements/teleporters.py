"""Teleporters (PBEM board element).

A movement card executed on a teleporter puts the robot (squares + 2) forward, in the way it faces
(Back-Up: 2 forward), over whatever lies between. If the arrival square holds a real robot (for a real
robot), holds a device that stands up from the floor (pusher, crusher, laser mount), or is off the
course, or (unless house rule ``teleport_through_walls``) a wall lies on the way, the teleporter does
not work and the card is executed normally. Turn cards are not affected.
"""

from __future__ import annotations

from .. import reach, shown
from ..cards import Card
from ..context import TurnContext
from ..geometry import DC, DR, Square, square_name
from ..hooks import on
from ..kinds import Kind
from ..movement import MovePlan, enter
from ..state import Robot

# what moved a robot, as the report and the story tell it (engine/shown.py)
shown.mover("teleport", "teleporter", "by a teleporter")


def jump(ctx: TurnContext, robot: Robot, card: Card, plan: MovePlan) -> None:
    if card.type.turn:
        return
    board = ctx.board
    start = robot.pos
    assert start is not None
    d = robot.facing
    distance = card.type.move + 2 if card.type.move > 0 else 2
    cur = start
    for _ in range(distance):
        if not ctx.rules.teleport_through_walls and (cur[0], cur[1], d) in board.blocked:
            return
        cur = (cur[0] + DR[d], cur[1] + DC[d])
    land(ctx, robot, card, plan, start, cur)


def land(ctx: TurnContext, robot: Robot, card: Card, plan: MovePlan, start: Square, to: Square) -> None:
    """Put the robot on ``to`` in place of the card's move, unless the square is off the course, holds
    a standing device or (for a real robot) a real robot: then the card is executed normally."""
    board = ctx.board
    if not board.on_board(to) or not board.flat(to):
        return
    if not robot.virtual and ctx.real_robot_at(to, exclude=robot) is not None:
        return
    ctx.place(robot, to)
    plan.done = True
    ctx.emit(robot, "teleport", {"to": square_name(to)}, card=str(card))
    enter(ctx, robot, start, robot.facing)


# how far it reaches (ruling 31)
reach.declare("teleporter", reach.Reach(reach.SQUARES, "31",
                                   what="jumps a robot (squares of its card + 2) forward"))


TELEPORTER = Kind(
    name="teleporter",
    doc='a movement card executed on it jumps the robot (squares + 2) forward, over whatever lies between',
    key='[T] teleporter',
    summary="a movement card executed here jumps the robot (squares + 2) forward",
    group="floor",
    hooks=(on("move.teleporters", jump),),
    glyph=lambda e: "[T]",
    rank=70,
)
