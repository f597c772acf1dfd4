"""Gears: turn the robots on them 90 degrees every register phase."""

from __future__ import annotations

from .. import shown
from ..context import TurnContext
from ..kinds import Field, Kind

shown.step("board.gears", "gear")


def turn(ctx: TurnContext, phase: int) -> None:
    gears = ctx.board.layer("gear")
    for robot in ctx.robots:
        els = gears.get(robot.pos) if robot.pos else None
        if els:
            quarter_turns = 3 if els[0]["turn"] == "left" else 1
            if robot.options:  # an option may keep it steady
                ctx.turn(robot, quarter_turns)
            else:  # what ``ctx.turn`` does then
                robot.facing = (robot.facing + quarter_turns) % 4
                ctx.emit(robot, "face", {"dir": "NESW"[robot.facing]})


GEAR = Kind(
    name="gear",
    doc='turns a robot on it a quarter turn each register phase',
    key='(L)/(R) gear',
    fields=(Field("turn", "choice", choices=("left", "right")),),
    summary="turns a robot on it 90 degrees left or right",
    group="floor",
    steps={"board.gears": turn},
    glyph=lambda e: "(L)" if e["turn"] == "left" else "(R)",
    rank=40,
)
