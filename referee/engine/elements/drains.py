"""Drains: bottomless shafts drawn as drains; a robot entering one, by any move, is destroyed, as in a pit."""

from __future__ import annotations

from .. import shown
from ..context import TurnContext
from ..geometry import Square
from ..hooks import on
from ..kinds import Kind
from ..state import Robot

shown.cause("drain", into="into a drain")


def swallow(ctx: TurnContext, robot: Robot, came_from: Square, d: int) -> None:
    ctx.destroy(robot, "drain")


DRAIN = Kind(
    name="drain",
    doc='a drain: a bottomless shaft like a pit; a robot entering it is destroyed',
    key='(o) drain',
    summary="a drain: a robot entering it is destroyed, as in a pit",
    group="floor",
    hooks=(on("move.pits", swallow),),
    glyph=lambda e: "(o)",
    rank=156,
)
