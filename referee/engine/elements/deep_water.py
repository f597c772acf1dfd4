"""Deep water: water that hurts.

As in water, a movement card executed from deep water loses its first square, and entering it costs
nothing extra. Every card a robot executes in it, a move or a turn, costs 1 damage first (even a
Move 1 that the water stops), and when lasers fire a robot in it takes 1 damage more.
"""

from __future__ import annotations

from .. import timing
from ..cards import Card
from ..context import TurnContext
from ..hooks import on
from ..kinds import Kind
from ..movement import MovePlan
from ..state import Robot
from .water import slow

# the steps of the timing table only this kind acts in, each right after the step named
timing.declare("move.deep_water", timing.CARD, "moving or turning in deep water costs 1 HP", after="move.water")
timing.declare("lasers.deep_water", "deep water", after="lasers.lava")


def wade(ctx: TurnContext, robot: Robot, card: Card, plan: MovePlan) -> None:
    """1 damage for moving or turning in deep water, then the water takes the first square."""
    ctx.damage(robot, 1, "deep water")
    if robot.pos is not None:
        slow(ctx, robot, card, plan)


def soak(ctx: TurnContext, phase: int) -> None:
    deep = ctx.board.layer("deep_water")
    for robot in ctx.robots:
        if robot.pos in deep:
            ctx.damage(robot, 1, "deep water")


DEEP_WATER = Kind(
    name="deep_water",
    doc=('deep water: as water (a movement card executed from it loses its first square); every card executed '
         'in it, move or turn, costs 1 damage, and a robot in it takes 1 more when lasers fire'),
    key='~D~ deep water',
    summary="water where each card executed (move or turn) costs 1 damage, and 1 more when lasers fire",
    group="floor",
    hooks=(on("move.deep_water", wade),),
    steps={"lasers.deep_water": soak},
    glyph=lambda e: "~D~",
    rank=135,
)
