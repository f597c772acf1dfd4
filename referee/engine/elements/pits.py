"""Pits: a robot that enters one is destroyed. Open board edges act the same (house rule ``edge``)."""

from __future__ import annotations

from .. import shown
from ..context import TurnContext
from ..geometry import Square
from ..hooks import on
from ..kinds import Kind
from ..state import Robot

shown.cause("pit", into="into the pit")


def fall(ctx: TurnContext, robot: Robot, came_from: Square, d: int) -> None:
    ctx.destroy(robot, "pit")


PIT = Kind(
    name="pit",
    doc=('a robot that enters the square is destroyed. What lies beyond the board edge and on void squares '
         'acts the same (unless the game uses the `edge = "fence"` house rule).'),
    key='### pit',
    summary="a bottomless shaft: a robot entering it is destroyed",
    group="floor",
    hooks=(on("move.pits", fall),),
    glyph=lambda e: "###",
    rank=90,
)
