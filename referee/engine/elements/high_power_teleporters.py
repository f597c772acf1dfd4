"""High-power teleporters (RoboFactory): teleporters that always jump walls.

A movement card executed on one puts the robot (squares + ``bonus``) forward, the way it faces
(a Back-Up counts as 0 squares: it jumps ``bonus`` forward), over walls and whatever else lies
between, whatever the house rule ``teleport_through_walls`` says. ``bonus`` is 2 (as ordinary
teleporters) or 3 (the rule texts' optional rule). If the arrival square is off the course, holds a
device standing up from the floor, or holds a real robot (for a real robot), nothing jumps and the
card is executed normally. Turn cards are not affected. It acts in the teleporters' step.
"""

from __future__ import annotations

from .. import reach
from ..cards import Card
from ..context import TurnContext
from ..geometry import DC, DR
from ..hooks import on
from ..kinds import Field, Kind
from ..movement import MovePlan
from ..state import Robot
from .teleporters import land


def jump(ctx: TurnContext, robot: Robot, card: Card, plan: MovePlan) -> None:
    if card.type.turn:
        return
    board = ctx.board
    start = robot.pos
    assert start is not None
    el = board.one("hp_teleporter", start)
    assert el is not None
    d = robot.facing
    distance = max(card.type.move, 0) + el["bonus"]
    land(ctx, robot, card, plan, start, (start[0] + DR[d] * distance, start[1] + DC[d] * distance))


# how far it reaches (ruling 14.15)
reach.declare("hp_teleporter", reach.Reach(reach.SQUARES, "14.15",
                                   what="jumps a robot (squares of its card + bonus) forward, through walls"))


HP_TELEPORTER = Kind(
    name="hp_teleporter",
    doc=('a high-power teleporter: a movement card executed on it jumps the robot (squares + `bonus`) forward, '
         'over walls and everything between, whatever the house rule on teleporters and walls says'),
    key='[H] high-power teleporter',
    fields=(Field("bonus", "int", required=False, default=2, lo=2, hi=3),),
    summary="a high-power teleporter: a movement card executed here jumps (squares + bonus) forward, over walls",
    group="floor",
    hooks=(on("move.teleporters", jump),),
    glyph=lambda e: "[H]",
    rank=71,
    legend=lambda e: f"high-power teleporter: squares + {e['bonus']}",
)
