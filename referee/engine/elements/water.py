"""Water and currents (PBEM board elements).

A movement card executed from water (still or flowing) loses its first square: Move 1 and Back-Up do
not move, Move 2 moves one. Entering water costs nothing extra. After the belts, a current carries the
robots in it one square toward its ``dir``, with the belts' conflict rules (it does not turn them).
"""

from __future__ import annotations

from .. import shown
from ..cards import Card
from ..context import TurnContext
from ..conveying import convey
from ..geometry import ARROWS
from ..hooks import on
from ..kinds import Field, Kind
from ..movement import MovePlan
from ..state import Robot

# what moved a robot, as the report and the story tell it (engine/shown.py)
shown.mover("carried", "current", "carried by a current", on="current")
shown.untold("water", "the moves it made are told; the stage tables show the square lost")


def slow(ctx: TurnContext, robot: Robot, card: Card, plan: MovePlan) -> None:
    if plan.squares > 0:
        plan.squares -= 1
        ctx.emit(robot, "water", card=str(card))
        if plan.squares == 0:
            plan.done = True


def flow(ctx: TurnContext, phase: int) -> None:
    lanes = ctx.board.cache.get("currents")
    if lanes is None:
        lanes = ctx.board.cache["currents"] = {sq: els[0]["dir"] for sq, els in ctx.board.layer("current").items()}
    moves = [(r, lanes[r.pos]) for r in ctx.robots if r.pos in lanes]
    if moves:
        convey(ctx, moves, lanes, False, "carried")


WATER = Kind(
    name="water",
    doc='still water: a movement card executed from it loses its first square',
    key='~~~ water',
    summary="still water: a movement card executed from it loses its first square",
    group="floor",
    hooks=(on("move.water", slow),),
    glyph=lambda e: "~~~",
    rank=21,
)

CURRENT = Kind(
    name="current",
    doc='flowing water: as water, and after the belts it carries the robots in it one square toward `dir`',
    key='~>~ current',
    fields=(Field("dir", "dir"),),
    summary="flowing water: as water, and it carries robots one square toward dir after the belts",
    group="floor",
    hooks=(on("move.water", slow),),
    steps={"board.currents": flow},
    glyph=lambda e: f"~{ARROWS[e['dir']]}~",
    rank=22,
)
