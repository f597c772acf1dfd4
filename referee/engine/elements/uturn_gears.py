"""U-turn gears: turn the robots on them 180 degrees every register phase, with the other gears."""

from __future__ import annotations

from ..context import TurnContext
from ..kinds import Kind


def about_turn(ctx: TurnContext, phase: int) -> None:
    gears = ctx.board.layer("uturn_gear")
    for robot in ctx.robots:
        if robot.pos in gears:
            ctx.turn(robot, 2)


UTURN_GEAR = Kind(
    name="uturn_gear",
    doc='turns a robot on it half a turn (180 degrees) each register phase, when the other gears turn',
    key='(U) u-turn gear',
    summary="turns a robot on it 180 degrees each register phase",
    group="floor",
    steps={"board.gears": about_turn},
    glyph=lambda e: "(U)",
    rank=43,
)
