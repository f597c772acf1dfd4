"""Randomizers (PBEM board element).

When the cards of a register phase are revealed, a robot on a randomizer has that phase's card
replaced by a card drawn at random (from the turn's seeded generator) from the cards nobody holds;
it executes the new card at the new card's priority. The log and the report show the card executed.
"""

from __future__ import annotations

from .. import shown
from ..context import TurnContext
from ..kinds import Kind

shown.untold("card replaced", "the moves it made are told; the stage tables show the card")


def draw(ctx: TurnContext, phase: int) -> None:
    """Robots on randomizers draw in the priority order of the cards they had (highest first), so the
    order the robots are listed in never decides who draws which card (rules version 2: listing order)."""
    squares = ctx.board.layer("randomizer")
    robots = [r for r in ctx.robots if r.pos in squares and r.name in ctx.current]
    if ctx.rules.order_free:
        robots.sort(key=lambda r: ctx.current[r.name].priority, reverse=True)
    for robot in robots:
        if ctx.undealt:
            old = ctx.current[robot.name]
            card = ctx.undealt.pop(ctx.rng.randrange(len(ctx.undealt)))
            ctx.current[robot.name] = card
            ctx.emit(robot, "card replaced", {"card": str(card)}, card=str(card), replaced=str(old))


RANDOMIZER = Kind(
    name="randomizer",
    doc="replaces the card of the robot on it with a random one when the phase's cards are revealed",
    key='? randomizer',
    summary="replaces the card of a robot standing on it with a random one when cards are revealed",
    group="floor",
    steps={"reveal.randomizers": draw},
    glyph=lambda e: " ? ",
    rank=65,
)
