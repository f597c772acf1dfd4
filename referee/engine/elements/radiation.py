"""Radiation: in register phase 5, after the lasers, every robot on a radiation square takes 1 damage.

Virtual and powered-down robots are hit too (it is the square that is hot, not a beam).
"""

from __future__ import annotations

from .. import shown, timing
from ..context import TurnContext
from ..kinds import Kind

shown.cause("radiation")

# the steps of the timing table only this kind acts in, each right after the step named
timing.declare("lasers.radiation", "radiation in register phase 5", after="lasers.turrets")


#: the register phase radiation burns in
RADIATION_PHASE = 5


def irradiate(ctx: TurnContext, phase: int) -> None:
    if phase != RADIATION_PHASE:
        return
    hot = ctx.board.layer("radiation")
    for robot in ctx.robots:
        if robot.pos in hot:
            ctx.damage(robot, 1, "radiation")


RADIATION = Kind(
    name="radiation",
    doc='radiation: in register phase 5, after the lasers fire, a robot on the square takes 1 damage',
    key='rad radiation',
    summary="in register phase 5, after the lasers, 1 damage to a robot on it",
    steps={"lasers.radiation": irradiate},
    glyph=lambda e: "rad",
    rank=136,
)
