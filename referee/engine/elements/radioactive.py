"""Radioactive waste: a robot on it takes 1 damage in every register phase when lasers fire, last of
the laser steps (after radio beams).

The timing sequence also lets a robot on radioactive waste draw an option card when checkpoints are
touched (step ``checkpoints.radioactive_options``): a robot standing on it then draws the top card
of the option deck, once a turn (the first register phase it is there; powered-down robots touch
nothing).
"""

from __future__ import annotations

from .. import shown, timing
from ..context import TurnContext
from ..kinds import Kind

shown.cause("radioactive waste")

# the steps of the timing table only this kind acts in, each right after the step named
timing.declare("lasers.radioactive_waste", "radioactive waste", after="lasers.radio_beams")
timing.declare("checkpoints.radioactive_options", "radioactive waste hands out options",
               after="checkpoints.reset_exchange")


def contaminate(ctx: TurnContext, phase: int) -> None:
    waste = ctx.board.layer("radioactive_waste")
    for robot in ctx.robots:
        if robot.pos in waste:
            ctx.damage(robot, 1, "radioactive waste")


def hand_out(ctx: TurnContext, phase: int) -> None:
    waste = ctx.board.layer("radioactive_waste")
    for robot in ctx.drawing_order([r for r in ctx.robots if r.pos in waste]):
        if not robot.powered_down:
            key = f"radioactive option:{robot.name}"
            if key not in ctx.notes:
                ctx.notes[key] = phase
                ctx.draw_option(robot, "radioactive waste")


RADIOACTIVE_WASTE = Kind(
    name="radioactive_waste",
    doc=('radioactive waste: a robot on it takes 1 damage in every register phase, in the last laser step, and '
         'draws an option card (once a turn) when checkpoints are touched'),
    key='(!) radioactive waste',
    summary="1 damage to a robot on it in every register phase, after every other laser step",
    steps={"lasers.radioactive_waste": contaminate, "checkpoints.radioactive_options": hand_out},
    glyph=lambda e: "(!)",
    rank=147,
)
