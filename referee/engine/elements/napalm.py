"""Napalm flamers: flamers whose fire sticks.

In its active phases (``phases``) a napalm flamer burns like a flamer: 1 damage to a robot entering
its square in any way or turning on it, and 1 more to a robot on it when lasers fire. Each time it
burns a robot in the robots-move step it also sets it on fire (status ``burning``; a robot burnt
by two napalm flamers carries two flames). A burning robot takes 1 damage per flame when lasers fire
in every later register phase, this turn and the next ones, until it enters water (still, flowing
or deep) and the fire goes out. Destruction puts it out too.
"""

from __future__ import annotations

from .. import looks, shown, timing
from ..cards import Card
from ..context import TurnContext
from ..events import register_wording
from ..geometry import Square
from ..hooks import Effect, on, register_effect
from ..kinds import Field, Kind
from ..state import Robot
from ..timing import ENTER, ROTATE

# the steps of the timing table only this kind acts in, each right after the step named
timing.declare("move.napalm", timing.ENTER, timing.ROTATE, "napalm flamers", after="move.flamers")
timing.declare("lasers.napalm", "active napalm flamers", after="lasers.flamers")


BURNING = "burning"
#: floor kinds that put the fire out
WET = ("water", "current", "deep_water")


def _active(ctx: TurnContext, sq: Square | None) -> bool:
    if sq is None:
        return False
    return any(ctx.phase in el["phases"] for el in ctx.board.layer("napalm").get(sq, ()))


def _ignite(ctx: TurnContext, robot: Robot) -> None:
    ctx.damage(robot, 1, "napalm")
    if robot.pos is None:
        return
    data = robot.option_data.setdefault(BURNING, {"flames": 0, "new": 0})
    data["flames"] += 1
    data["new"] += 1
    if BURNING not in robot.statuses:
        robot.statuses.add(BURNING)
        ctx.emit(robot, "ignited")


def scorch_entering(ctx: TurnContext, robot: Robot, came_from: Square, d: int) -> None:
    if _active(ctx, robot.pos):
        _ignite(ctx, robot)


def scorch_turning(ctx: TurnContext, robot: Robot, card: Card) -> None:
    if _active(ctx, robot.pos):
        _ignite(ctx, robot)


def blaze(ctx: TurnContext, phase: int) -> None:
    """Lasers fire: 1 damage on an active napalm flamer, and each old flame of a burning robot burns."""
    flamers = ctx.board.layer("napalm")
    for robot in ctx.robots:
        if robot.pos is None:
            continue
        if robot.pos in flamers and _active(ctx, robot.pos):
            ctx.damage(robot, 1, "napalm")
        if BURNING in robot.statuses and BURNING not in robot.option_data:  # the status alone: one flame
            robot.option_data[BURNING] = {"flames": 1, "new": 0}
        data = robot.option_data.get(BURNING)
        if data is not None and robot.on_board:   # (the damage above may have destroyed it)
            old = data["flames"] - data["new"]
            data["new"] = 0
            if old > 0:
                ctx.damage(robot, old, "burning")


def douse(ctx: TurnContext, robot: Robot, came_from: Square, d: int) -> None:
    """A burning robot entering water is put out."""
    if robot.pos is not None and any(robot.pos in ctx.board.layer(k) for k in WET):
        put_out(ctx, robot)


def put_out(ctx: TurnContext, robot: Robot) -> None:
    """The fire of a burning robot goes out (water here; puddles use it too)."""
    if BURNING in robot.statuses or BURNING in robot.option_data:
        robot.statuses.discard(BURNING)
        robot.option_data.pop(BURNING, None)
        ctx.emit(robot, "extinguished")


register_wording("ignited", "on fire")
register_wording("extinguished", "fire out")
shown.status(BURNING, "burning (napalm)", given_by="ignited", taken_by="extinguished", taken="fire out", mark="B",
             kinds=("napalm",))
shown.cause("napalm")
shown.cause(BURNING, "burning (napalm)", story="burnt out (napalm)")
register_effect(Effect(BURNING, "on fire: 1 damage per flame when lasers fire, until it enters water",
                       hooks=(on("move.napalm", douse, ENTER),)))

NAPALM = Kind(
    name="napalm",
    doc=('a napalm flamer: burns as a flamer in the listed register phases and sets the robot it burns on fire; '
         'a burning robot takes 1 damage per flame when lasers fire in every later phase until it enters water'),
    key='&N& napalm',
    fields=(Field("phases", "phases"),),
    summary="a flamer (listed phases) whose fire sticks: burning robots take 1 damage each phase until in water",
    hooks=(on("move.napalm", scorch_entering, ENTER), on("move.napalm", scorch_turning, ROTATE)),
    steps={"lasers.napalm": blaze},
    glyph=lambda e: "&N&",
    rank=151,
    legend=lambda e: f"napalm flamer phases {','.join(map(str, e['phases']))}",
)

# the pictures: burning in its phases (:mod:`referee.engine.looks`)
looks.declare("napalm", looks.active_in("phases"))
