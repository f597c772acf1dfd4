"""Puddles (RoboFactory): too shallow to slow a robot; they put out a burning robot.

A robot moving into or through a puddle, by any move, loses its ``burning`` status (the marker a
napalm flamer sets) and the log says ``fire out`` (the napalm module's wording). Cards executed from
a puddle lose nothing.
"""

from __future__ import annotations

from .. import timing
from ..context import TurnContext
from ..geometry import Square
from ..hooks import on
from ..kinds import Kind
from ..state import Robot
from .napalm import put_out

# the steps of the timing table only this kind acts in, each right after the step named
timing.declare("move.puddles", timing.ENTER, "puddles", after="move.oil")


def douse(ctx: TurnContext, robot: Robot, came_from: Square, d: int) -> None:
    put_out(ctx, robot)


PUDDLE = Kind(
    name="puddle",
    doc=('a puddle: too shallow to slow robots; a burning robot moving into or through it is put out '
         '(loses its `burning` status)'),
    key=',~, puddle',
    summary="a puddle: does not slow robots; a burning robot entering it is put out",
    group="floor",
    hooks=(on("move.puddles", douse),),
    glyph=lambda e: ",~,",
    rank=148,
)
