"""Mag-locks (RoboFactory): in their active register phases they hold a robot fast.

In its ``phases`` a mag-lock is active. A robot that moves onto it, by its card or pushed, stops
there: whatever is left of the move is lost. A robot on an active mag-lock cannot leave it: its
movement cards are ignored (turn cards work), and nothing moves it (pushes, belts, pushers, pulls).
Gears still turn it, lasers still hit it and it still fires.
"""

from __future__ import annotations

from .. import looks, shown, timing
from ..cards import Card
from ..context import TurnContext
from ..events import register_wording
from ..geometry import Square
from ..hooks import on
from ..kinds import Field, Kind
from ..movement import MovePlan
from ..state import Robot
from ..timing import CARD, CROSS, ENTER

# the steps of the timing table only this kind acts in, each right after the step named
timing.declare("move.mag_locks", timing.CARD, timing.CROSS, timing.ENTER, "mag-locks", after="move.teleporters")


register_wording("locked", "locked by the mag-lock")
shown.untold("locked", "the stage tables show it")


def _active(ctx: TurnContext, sq: Square | None) -> bool:
    els = ctx.board.layer("mag_lock").get(sq) if sq is not None else None
    if not els:
        return False
    return any(ctx.phase in el["phases"] for el in els)


def ignore_move(ctx: TurnContext, robot: Robot, card: Card, plan: MovePlan) -> None:
    if not card.type.turn and _active(ctx, robot.pos):
        ctx.emit(robot, "locked", card=str(card))
        plan.done = True


def hold(ctx: TurnContext, robot: Robot, d: int) -> bool:
    return not _active(ctx, robot.pos)


def catch(ctx: TurnContext, robot: Robot, came_from: Square, d: int) -> None:
    if _active(ctx, robot.pos):
        ctx.emit(robot, "locked")


MAG_LOCK = Kind(
    name="mag_lock",
    doc=('in the listed register phases, a robot moving or pushed onto it stops there, and a robot on it cannot '
         'leave: its movement cards are ignored and nothing pushes, carries or pulls it (it still turns)'),
    key='=M= mag-lock',
    fields=(Field("phases", "phases"),),
    summary="in the listed phases, holds a robot on it fast: it stops there and nothing moves it off",
    hooks=(on("move.mag_locks", ignore_move, CARD), on("move.mag_locks", hold, CROSS),
           on("move.mag_locks", catch, ENTER)),
    glyph=lambda e: "=M=",
    rank=165,
    legend=lambda e: f"mag-lock phases {','.join(map(str, e['phases']))}",
)

# the pictures: holding in its phases (:mod:`referee.engine.looks`)
looks.declare("mag_lock", looks.active_in("phases"))
