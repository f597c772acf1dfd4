"""Crumbly ground: robots may move over it or stop on it, but a turn card executed on it sinks the
robot in: it is destroyed (it loses a life) before it turns. A robot that only passes, stops,
or is carried or pushed across is not hurt.
"""

from __future__ import annotations

from .. import shown, timing
from ..cards import Card
from ..context import TurnContext
from ..hooks import on
from ..kinds import Kind
from ..movement import MovePlan
from ..state import Robot

shown.cause("crumbly ground", into="through crumbly ground")

# the steps of the timing table only this kind acts in, each right after the step named
timing.declare("move.crumbly", timing.CARD, "rotate cards on crumbly ground sink in", after="move.pistons")


def sink(ctx: TurnContext, robot: Robot, card: Card, plan: MovePlan) -> None:
    if card.type.turn:
        ctx.destroy(robot, "crumbly ground")
        plan.done = True


CRUMBLY = Kind(
    name="crumbly",
    doc=('crumbly ground: open floor to move over or stop on, but a robot executing a turn card on it sinks in '
         'and is destroyed'),
    key=':.: crumbly',
    summary="floor that destroys a robot executing a turn card on it",
    group="floor",
    hooks=(on("move.crumbly", sink),),
    glyph=lambda e: ":.:",
    rank=134,
)
