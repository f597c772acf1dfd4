"""Blasters / melting beams (RoboFactory): a beam that melts robots and locks the register they are in.

A melting beam is always on, in every register phase; it is written on each square it crosses. Like a
flamer it does 1 damage to a robot entering a square of it by any move, or turning on one with a turn
card, and 1 more to a robot standing in it when the melting beams act (after the radiation, before the
flamers). Every point of its damage locks the robot's current register, if it is not locked already:
the card the robot executes in this register phase stays in that register through the next turn, as a
fused register does (``state.HELD``: it is dealt round and must be kept there), and is released at the
end of that turn unless damage has fused it by then. Virtual and flying robots are melted too. A
robot with no card this phase (powered down, no program) has nothing to lock.
"""

from __future__ import annotations

from .. import shown, timing
from ..cards import Card
from ..context import TurnContext
from ..events import register_wording
from ..geometry import Square
from ..hooks import on
from ..kinds import Kind
from ..state import HELD, Robot
from ..timing import ENTER, ROTATE

shown.cause("melting beam")
shown.told("melted", "melting beam", "by a melting beam")

# the steps of the timing table only this kind acts in, each right after the step named
timing.declare("move.melting_beams", timing.ENTER, timing.ROTATE, "melting beams cost 1 HP and lock the register",
               after="move.portals")
timing.declare("lasers.melting_beams", "melting beams", after="lasers.radiation")


NAME = "melting_beam"
register_wording("melted", "register {register} melted")
shown.said("melted", with_hits=True)


def melt(ctx: TurnContext, robot: Robot) -> None:
    ctx.damage(robot, 1, "melting beam")
    phase = ctx.phase
    card = ctx.current.get(robot.name)
    if robot.pos is None or not isinstance(phase, int) or card is None or phase in robot.locked:
        return
    robot.locked[phase] = card
    robot.option_data.setdefault(HELD, {})[str(phase)] = 2
    ctx.emit(robot, "melted", {"register": phase}, card=str(card))


def melt_entering(ctx: TurnContext, robot: Robot, came_from: Square, d: int) -> None:
    melt(ctx, robot)


def melt_turning(ctx: TurnContext, robot: Robot, card: Card) -> None:
    melt(ctx, robot)


def melt_standing(ctx: TurnContext, phase: int) -> None:
    beams = ctx.board.layer(NAME)
    for robot in ctx.robots:
        if robot.pos in beams:
            melt(ctx, robot)


MELTING_BEAM = Kind(
    name=NAME,
    doc=('a blaster (melting beam) across the square, on in every register phase: 1 damage to a robot entering it '
         'or turning in it, and 1 more to a robot in it when the melting beams act; each point locks the register '
         'the robot is executing (its card stays there through the next turn)'),
    key='=#= melting beam',
    summary="a melting beam: 1 damage on entering or turning in it and at the end of the phase; locks the register",
    hooks=(on("move.melting_beams", melt_entering, ENTER), on("move.melting_beams", melt_turning, ROTATE)),
    steps={"lasers.melting_beams": melt_standing},
    glyph=lambda e: "=#=",
    rank=26,
)
