"""Deep water: water that hurts.

As in water, a movement card executed from deep water loses its first square, and entering it costs
nothing extra. A card a robot executes in deep water (a move or a turn) or whose move takes it into or
through deep water costs 1 damage, once a card: executed in it, before the water slows it (even a Move 1
that the water stops); otherwise when the robot first enters deep water under the card. Being pushed
or carried in costs nothing. When lasers fire a robot in it takes 1 damage more. House rule
``deep_water_start_only`` (the reading of rules version 2): only a card executed in it costs.
"""

from __future__ import annotations

from .. import shown, timing
from ..cards import Card
from ..context import TurnContext
from ..geometry import Square
from ..hooks import on
from ..kinds import Kind
from ..movement import MovePlan, card_move, track_card_moves
from ..state import Robot
from ..timing import CARD, ENTER
from .water import slow

shown.cause("deep water", into="into deep water")

#: the mark a card's move carries once deep water has charged it
PAID = "deep water"
track_card_moves("deep_water")

# the steps of the timing table only this kind acts in, each right after the step named
timing.declare("move.deep_water", timing.CARD, timing.ENTER, "moving or turning in or through deep water costs 1 HP",
               after="move.water")
timing.declare("lasers.deep_water", "deep water", after="lasers.lava")


def wade(ctx: TurnContext, robot: Robot, card: Card, plan: MovePlan) -> None:
    """1 damage for moving or turning in deep water, then the water takes the first square."""
    move = card_move(ctx, robot)
    if move is not None:
        move.marks.add(PAID)
    ctx.damage(robot, 1, "deep water")
    if robot.pos is not None:
        slow(ctx, robot, card, plan)


def wade_in(ctx: TurnContext, robot: Robot, came_from: Square, d: int) -> None:
    """1 damage for a card's move into or through deep water (once a card; pushes and belts cost nothing)."""
    if ctx.rules.deep_water_start_only:
        return
    move = card_move(ctx, robot)
    if move is None or PAID in move.marks:
        return
    move.marks.add(PAID)
    ctx.damage(robot, 1, "deep water")


def soak(ctx: TurnContext, phase: int) -> None:
    deep = ctx.board.layer("deep_water")
    for robot in ctx.robots:
        if robot.pos in deep:
            ctx.damage(robot, 1, "deep water")


DEEP_WATER = Kind(
    name="deep_water",
    doc=('deep water: as water (a movement card executed from it loses its first square); every card executed '
         'in it, move or turn, or moving a robot into or through it costs 1 damage, and a robot in it takes 1 '
         'more when lasers fire'),
    key='~D~ deep water',
    summary="water where each card executed costs 1 damage, and 1 more when lasers fire",
    group="floor",
    hooks=(on("move.deep_water", wade, CARD), on("move.deep_water", wade_in, ENTER)),
    steps={"lasers.deep_water": soak},
    glyph=lambda e: "~D~",
    rank=135,
)
