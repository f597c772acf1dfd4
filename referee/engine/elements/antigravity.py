"""Antigravity fields: a robot standing on one when the turn's first cards are revealed flies until the
end of the turn, or until it takes damage.

A flying robot carries the status ``flying``: floor elements (pits, belts, gears, water, oil...) do not
act on it, nor on others because of it. Walls, devices standing up from the floor (pushers, crushers,
lasers), other robots and the checkpoints still do. It lands after the fifth register phase, or as soon
as a hit lands on it; then the square it lands on acts as if it had entered it (a pit swallows it): at
once at the end of the turn, at the end of the laser step when it was hit.
"""

from __future__ import annotations

from typing import Any

from .. import shown, timing
from ..context import TurnContext
from ..events import register_wording
from ..hooks import Effect, register_effect
from ..kinds import Kind
from ..movement import enter
from ..state import FLYING, Robot

# the steps of the timing table only this kind acts in, each right after the step named
timing.declare("reveal.antigrav", "robots on antigravity fields start to fly", after="reveal.randomizers")


register_wording("flies", "flies (antigravity)")
register_wording("lands", "lands")
shown.status(FLYING, "flying", given_by="flies", taken_by="lands", taken="landed", mark="F", kinds=("antigravity",))

_LANDED = "antigravity landed"


def take_off(ctx: TurnContext, phase: int) -> None:
    if phase != 1:
        return
    fields = ctx.board.layer("antigravity")
    for robot in ctx.robots:
        if robot.pos in fields and FLYING not in robot.statuses:
            robot.statuses.add(FLYING)
            ctx.emit(robot, "flies")


def _land(ctx: TurnContext, robot: Robot) -> None:
    robot.statuses.discard(FLYING)
    ctx.emit(robot, "lands")


def _touch_down(ctx: TurnContext, robot: Robot) -> None:
    """The square it landed on acts on it as on a robot entering it."""
    pos = robot.pos
    if pos is not None:
        enter(ctx, robot, pos, robot.facing)


def hit_lands(ctx: TurnContext, robot: Robot, hit: Any) -> int:
    """A flying robot that takes damage lands at once; its square acts on it after the laser step."""
    amount: int = hit.amount
    if amount > 0 and FLYING in robot.statuses:
        _land(ctx, robot)
        ctx.notes.setdefault(_LANDED, []).append(robot)
    return amount


def settle(ctx: TurnContext, phase: int) -> None:
    for robot in ctx.notes.pop(_LANDED, []):
        _touch_down(ctx, robot)


def land_all(ctx: TurnContext) -> None:
    for robot in ctx.robots:
        if FLYING in robot.statuses and robot.pos is not None:
            _land(ctx, robot)
            _touch_down(ctx, robot)


register_effect(Effect(FLYING, "flying: floor elements do not act on it; a hit lands it", guard=hit_lands))

ANTIGRAVITY = Kind(
    name="antigravity",
    doc=('an antigravity field: a robot on it when the first cards of the turn are revealed flies until the end'
         ' of the turn or until a hit lands on it; floor elements (pits, belts, gears, water...) ignore a '
         'flying robot; on landing its square acts on it as on a robot entering it'),
    key='/A\\ antigravity',
    summary="a robot on it at the start of the turn flies (floor elements ignore it) until the turn ends or it is hit",
    group="floor",
    steps={"reveal.antigrav": take_off, "lasers.option_pushes": settle, "end.repairs": land_all},
    glyph=lambda e: "/A\\",
    rank=67,
)
