"""Graves: when lasers fire (after the lava, before molten ore), a robot on a grave takes 1 damage.
Ghosts rise from them (``ghosts.py``): a board with graves runs the ghosts' steps."""

from __future__ import annotations

from .. import shown, timing
from ..context import TurnContext
from ..kinds import Kind
from . import ghosts

shown.cause("grave")

# the steps of the timing table only this kind acts in, each right after the step named
timing.declare("lasers.ghosts", "ghosts", after="lasers.deep_water")
timing.declare("lasers.graves", "graves", after="lasers.ghosts")


def haunt(ctx: TurnContext, phase: int) -> None:
    graves = ctx.board.layer("grave")
    for robot in ctx.robots:
        if robot.pos in graves:
            ctx.damage(robot, 1, "grave")


GRAVE = Kind(
    name="grave",
    doc='a grave: in every register phase, when lasers fire, a robot on it takes 1 damage',
    key='RIP grave',
    summary="1 damage to a robot on it in every register phase, when lasers fire",
    group="floor",
    steps={"lasers.graves": haunt, "reveal.virtualizers": ghosts.rise, "lasers.ghosts": ghosts.glare,
           "end.turn_real": ghosts.forget},
    install=ghosts.install,
    glyph=lambda e: "RIP",
    rank=143,
)
