"""Molten ore flows: after the currents they carry the robots in them one square toward ``dir``, with
the belts' conflict rules (like a current, they do not turn robots); when lasers fire a robot
standing in one takes 1 damage. Unlike water they do not slow cards.
"""

from __future__ import annotations

from .. import shown, timing
from ..context import TurnContext
from ..conveying import convey
from ..geometry import ARROWS
from ..kinds import Field, Kind

# what moved a robot, as the report and the story tell it (engine/shown.py)
shown.mover("carried", "molten ore", "carried by molten ore", step="board.molten_ore")

shown.cause("molten ore")

# the steps of the timing table only this kind acts in, each right after the step named
timing.declare("lasers.molten_ore", "molten ore", after="lasers.graves")


def flow(ctx: TurnContext, phase: int) -> None:
    lanes = ctx.board.cache.get("molten_ore")
    if lanes is None:
        lanes = ctx.board.cache["molten_ore"] = {sq: els[0]["dir"] for sq, els in ctx.board.layer("molten_ore").items()}
    moves = [(r, lanes[r.pos]) for r in ctx.robots if r.pos in lanes]
    if moves:
        convey(ctx, moves, lanes, False, "carried")


def scald(ctx: TurnContext, phase: int) -> None:
    ore = ctx.board.layer("molten_ore")
    for robot in ctx.robots:
        if robot.pos in ore:
            ctx.damage(robot, 1, "molten ore")


MOLTEN_ORE = Kind(
    name="molten_ore",
    doc=('a molten ore flow: after the currents it carries a robot in it one square toward `dir` (as a current '
         'does), and a robot standing in it when lasers fire takes 1 damage'),
    key='o>o molten ore',
    fields=(Field("dir", "dir"),),
    summary="carries robots one square toward dir after the currents; 1 damage to a robot in it when lasers fire",
    group="floor",
    steps={"board.molten_ore": flow, "lasers.molten_ore": scald},
    glyph=lambda e: f"o{ARROWS[e['dir']]}o",
    rank=146,
)
