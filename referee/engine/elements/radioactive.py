"""Radioactive waste: a robot on it takes 1 damage in every register phase when lasers fire, last of
the laser steps (after radio beams).

The timing sequence also lets a robot on radioactive waste draw an option card when checkpoints are
touched (step ``checkpoints.radioactive_options``). No option deck is dealt yet, so the kind does not
act in that step; when options exist, give it a handler there that asks the player through
``ctx.decide`` (the two-wrench choice in ``checkpoints.py`` is the model) and deals the card.
"""

from __future__ import annotations

from ..context import TurnContext
from ..kinds import Kind


def contaminate(ctx: TurnContext, phase: int) -> None:
    waste = ctx.board.layer("radioactive_waste")
    for robot in ctx.robots:
        if robot.pos in waste:
            ctx.damage(robot, 1, "radioactive waste")


RADIOACTIVE_WASTE = Kind(
    name="radioactive_waste",
    doc=('radioactive waste: a robot on it takes 1 damage in every register phase, in the last laser step (it '
         'will also offer an option card once option cards are dealt)'),
    key='(!) radioactive waste',
    summary="1 damage to a robot on it in every register phase, after every other laser step",
    steps={"lasers.radioactive_waste": contaminate},
    glyph=lambda e: "(!)",
    rank=147,
)
