"""Pits: a robot that enters one is destroyed. Open board edges act the same (house rule ``edge``)."""

from __future__ import annotations

from ..board import Board, Element
from ..context import TurnContext
from ..geometry import Square
from ..kinds import Kind
from ..state import Robot


def fall(ctx: TurnContext, robot: Robot, came_from: Square, d: int) -> None:
    ctx.destroy(robot, "pit")


def _install(board: Board, el: Element) -> None:
    board.add_hook("move.pits", el.at, fall)


PIT = Kind(
    name="pit",
    summary="a bottomless shaft: a robot entering it is destroyed",
    group="floor",
    install=_install,
    glyph=lambda e: "###",
    rank=90,
)
