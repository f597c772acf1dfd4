"""Virtualizers: a robot standing on one when a phase's cards are revealed turns virtual for five
register phases, that one included (into the next turn when need be).

While the five phases run it stays virtual even when alone on its square (status ``virtualized``, the
phases left in ``option_data["virtualized"]``); after the fifth phase it turns real by the ordinary
rule, as soon as it is alone. Standing on a virtualizer again starts the five phases again. Being
destroyed ends it.
"""

from __future__ import annotations

from .. import shown
from ..context import TurnContext
from ..events import register_wording
from ..kinds import Kind
from ..state import VIRTUALIZED

PHASES = 5

register_wording("virtualized", "turns virtual (virtualizer)")
shown.status(VIRTUALIZED, "virtual (virtualizer)", instead=True, given_by="virtualized", mark="V",
             kinds=("virtualizer",))


def virtualize(ctx: TurnContext, phase: int) -> None:
    squares = ctx.board.layer("virtualizer")
    for robot in ctx.robots:
        if robot.pos in squares:
            if not robot.virtual:
                robot.virtual = True
                ctx.emit(robot, "virtualized")
            robot.statuses.add(VIRTUALIZED)
            robot.option_data[VIRTUALIZED] = {"phases": PHASES}


def count_down(ctx: TurnContext, phase: int) -> None:
    """Before virtual robots alone turn real: one of the five phases is over."""
    for robot in ctx.robots:
        if VIRTUALIZED in robot.statuses:
            left = robot.option_data.get(VIRTUALIZED, {}).get("phases", 1) - 1
            if left > 0:
                robot.option_data[VIRTUALIZED] = {"phases": left}
            else:
                robot.statuses.discard(VIRTUALIZED)
                robot.option_data.pop(VIRTUALIZED, None)


VIRTUALIZER = Kind(
    name="virtualizer",
    doc=('a robot on it when a phase\'s cards are revealed turns virtual for five register phases (that one '
         'included, on into the next turn); it stays virtual even when alone until they are over'),
    key='<V> virtualizer',
    summary="a robot on it when cards are revealed turns virtual for five register phases",
    group="floor",
    steps={"reveal.virtualizers": virtualize, "checkpoints.turn_real": count_down},
    glyph=lambda e: "<V>",
    rank=66,
)
