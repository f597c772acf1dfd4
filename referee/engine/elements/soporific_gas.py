"""Soporific gas (RoboFactory): a cloud that puts a robot to sleep for five register phases.

A robot whose movement card ends in the gas (moved by its own card: not pushed, carried or turning
there) falls asleep at once: it is powered down (status ``gassed``) for the next five register
phases, over into the next turn, and keeps the cards of its registers not yet executed. While it
sleeps it executes nothing, fires nothing and touches nothing, and damage still hurts it; a turn that
begins with it asleep begins, as for any powered-down robot, with all its damage repaired, and it is
dealt no cards and owes no program. When the five phases are over it wakes and executes the cards it
kept in their registers (asleep after register 2, it wakes in phase 3 of the next turn and plays its
old registers 3, 4 and 5); it is then an ordinary robot again. The kept cards are in
``option_data["gassed"]``, and dealing keeps them out of every hand. A robot already asleep is not
gassed again; destruction ends it.
"""

from __future__ import annotations

from .. import shown, timing
from ..cards import Card, parse_card
from ..context import TurnContext
from ..events import register_wording
from ..hooks import on
from ..kinds import Kind
from ..movement import MovePlan
from ..state import GASSED, Robot
from ..timing import STOP

# the steps of the timing table only this kind acts in, each right after the step named
timing.declare("move.soporific_gas", timing.STOP, "soporific gas powers robots down", after="move.energizers")


SLEEP = 5
register_wording("gassed", "falls asleep in the gas")
register_wording("wakes", "wakes up")
shown.status(GASSED, "asleep (soporific gas)", given_by="gassed", mark="Z", kinds=("soporific_gas",))
shown.untold("wakes", "the Now line no longer says asleep")


def fall_asleep(ctx: TurnContext, robot: Robot, card: Card, plan: MovePlan) -> None:
    phase = ctx.phase
    if GASSED in robot.statuses or robot.pos == plan.start or not isinstance(phase, int):
        return
    program = ctx.programs.get(robot.name) or []
    kept = {str(reg): str(program[reg - 1]) for reg in range(phase + 1, 6)
            if reg <= len(program) and program[reg - 1] is not None}
    robot.statuses.add(GASSED)
    robot.option_data[GASSED] = {"asleep": SLEEP, "cards": kept}
    robot.powered_down = True
    ctx.emit(robot, "gassed")


def reveal(ctx: TurnContext, phase: int) -> None:
    """Count the sleepers' phases down; wake those whose five are over and hand them their kept card."""
    for robot in ctx.robots:
        data = robot.option_data.get(GASSED)
        if robot.pos is None or data is None:
            continue
        if data["asleep"] > 0:
            data["asleep"] -= 1
            continue
        if robot.powered_down:
            robot.powered_down = False
            ctx.emit(robot, "wakes")
        kept = data["cards"].pop(str(phase), None)
        if kept is not None:
            ctx.current[robot.name] = parse_card(kept)
        if not data["cards"]:
            _end(robot)


def keep_sleeping(ctx: TurnContext) -> None:
    """After the end-of-turn power down: a robot still asleep stays powered down into the next turn."""
    for robot in ctx.robots:
        data = robot.option_data.get(GASSED)
        if data is None or robot.pos is None:
            continue
        if data["asleep"] > 0 or data["cards"]:
            robot.powered_down = True
        else:
            _end(robot)


def _end(robot: Robot) -> None:
    robot.statuses.discard(GASSED)
    robot.option_data.pop(GASSED, None)


SOPORIFIC_GAS = Kind(
    name="soporific_gas",
    doc=('soporific gas: a robot whose movement card ends in it falls asleep (powered down) for the next five '
         'register phases, over into the next turn, keeping the cards of its registers not yet executed; then it '
         'wakes and executes them in their registers'),
    key='zzz soporific gas',
    summary="soporific gas: a robot ending a move in it sleeps five phases, then plays the cards it kept",
    hooks=(on("move.soporific_gas", fall_asleep, STOP),),
    steps={"reveal.virtualizers": reveal, "end.fuse": keep_sleeping},
    glyph=lambda e: "zzz",
    rank=24,
)
