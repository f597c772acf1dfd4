"""Flamers (a kind written only against the engine's hooks).

In its active register phases (``phases``) a flamer burns: a robot entering its square, in any
way, takes 1 damage, and so does a robot turning on it with a turn card; when lasers fire, every
robot standing on an active flamer takes 1 damage more (after the lasers). Virtual robots burn too.
"""

from __future__ import annotations

from .. import looks, shown, timing
from ..cards import Card
from ..context import TurnContext
from ..geometry import Square
from ..hooks import on
from ..kinds import Field, Kind
from ..state import Robot
from ..timing import ENTER, ROTATE

shown.cause("flamer")

# the steps of the timing table only this kind acts in, each right after the step named
timing.declare("lasers.flamers", "active flamers", after="lasers.melting_beams")


def _active(ctx: TurnContext, sq: Square | None) -> bool:
    els = ctx.board.layer("flamer").get(sq) if sq is not None else None
    if not els:
        return False
    return any(ctx.phase in el["phases"] for el in els)


def scorch_entering(ctx: TurnContext, robot: Robot, came_from: Square, d: int) -> None:
    if _active(ctx, robot.pos):
        ctx.damage(robot, 1, "flamer")


def scorch_turning(ctx: TurnContext, robot: Robot, card: Card) -> None:
    if _active(ctx, robot.pos):
        ctx.damage(robot, 1, "flamer")


def blaze(ctx: TurnContext, phase: int) -> None:
    for robot in ctx.robots:
        if _active(ctx, robot.pos):
            ctx.damage(robot, 1, "flamer")


FLAMER = Kind(
    name="flamer",
    doc=('in the listed register phases, 1 damage to a robot entering it or turning on it, and 1 more to a '
         'robot on it when lasers fire'),
    key='&&& flamer',
    fields=(Field("phases", "phases"),),
    summary="in the listed register phases, 1 damage to a robot entering or turning on it, and 1 when lasers fire",
    hooks=(on("move.flamers", scorch_entering, ENTER), on("move.flamers", scorch_turning, ROTATE)),
    steps={"lasers.flamers": blaze},
    glyph=lambda e: "&&&",
    rank=25,
    legend=lambda e: f"flamer phases {','.join(map(str, e['phases']))}",
)

# the pictures: lit in the phases it acts in (:mod:`referee.engine.looks`)
looks.declare("flamer", looks.active_in("phases"))
