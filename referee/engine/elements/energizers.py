"""Energizers: a robot whose movement card ends on one is energized for the rest of the turn.

In every later register phase an energized robot executes two program cards, one after the other,
in register order and wrapping round after register 5 (energized in phase 2: registers 3 and 4 in
phase 3, 5 and 1 in phase 4, 2 and 3 in phase 5). It acts at the priority of the card of the
phase's own register. The status (``energized``, the next register in ``option_data``) ends with
the turn or with destruction.
"""

from __future__ import annotations

from .. import shown, timing
from ..card_moves import execute_card
from ..cards import Card
from ..context import TurnContext
from ..events import register_wording
from ..hooks import Effect, on, register_effect
from ..kinds import Kind
from ..movement import MovePlan
from ..state import ENERGIZED, Robot
from ..timing import CARD

# the steps of the timing table only this kind acts in, each right after the step named
timing.declare("move.energizers", timing.STOP, "energizers", after="move.copy_machines")


register_wording("energized", "energized")
register_wording("double speed", "executes two registers from register {register} (energizer)")
shown.status(ENERGIZED, "energized", given_by="energized", mark="E", kinds=("energizer",))
shown.untold("double speed", "the moves it made are told; the stage tables show the registers")

_BUSY = "energizer executing"


def charge(ctx: TurnContext, robot: Robot, card: Card, plan: MovePlan) -> None:
    if ENERGIZED in robot.statuses or not isinstance(ctx.phase, int) or ctx.phase >= 5:
        return
    robot.statuses.add(ENERGIZED)
    robot.option_data[ENERGIZED] = {"next": ctx.phase + 1}
    ctx.flush_moves()
    ctx.emit(robot, "energized")


def double(ctx: TurnContext, robot: Robot, card: Card, plan: MovePlan) -> None:
    """Instead of the phase's card: the next two registers, in order."""
    data = robot.option_data.get(ENERGIZED)
    if ctx.notes.get(_BUSY) or not data:
        return
    first = data["next"]
    second = first % 5 + 1
    robot.option_data[ENERGIZED] = {"next": second % 5 + 1}
    program = ctx.programs.get(robot.name) or []
    ctx.emit(robot, "double speed", {"register": first}, registers=[first, second])
    plan.done = True
    ctx.notes[_BUSY] = True
    try:
        for register in (first, second):
            nxt = program[register - 1] if register <= len(program) else None
            if nxt is not None and robot.pos is not None:
                execute_card(ctx, robot, nxt)
    finally:
        ctx.notes.pop(_BUSY, None)


def discharge(ctx: TurnContext) -> None:
    for robot in ctx.robots:
        robot.statuses.discard(ENERGIZED)
        robot.option_data.pop(ENERGIZED, None)


register_effect(Effect(ENERGIZED, "executes two registers a phase, in register order",
                       hooks=(on("move.teleporters", double, CARD),)))

ENERGIZER = Kind(
    name="energizer",
    doc=('a robot whose movement card ends on it is energized for the rest of the turn: in each later register '
         'phase it executes its next two registers in order, wrapping round after register 5'),
    key='$$$ energizer',
    summary="a robot whose card ends here executes two registers a phase for the rest of the turn",
    group="floor",
    hooks=(on("move.energizers", charge),),
    steps={"end.repairs": discharge},
    glyph=lambda e: "$$$",
    rank=68,
)
