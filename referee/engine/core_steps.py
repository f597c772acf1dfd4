"""The core steps of a turn: what the robots do themselves, not any board element (power-down repairs, turning
real when alone, the winner, re-entry, powering down, fused registers, pushes option weapons ordered)."""

from __future__ import annotations

from collections.abc import Callable

from . import shown
from .cards import Card, locked_registers
from .context import TurnContext
from .elements.lasers import robot_lasers
from .geometry import square_name
from .movement import PUSH, try_step
from .state import HELD, TAMAGOTCHI, VIRTUALIZED

shown.said("re-enter", "re-entered at {at} facing {facing}", "re-entered at {at}")
shown.said("wins", "touched the last flag and won the game")
shown.untold("out", "the Now line says it is out of the game")
shown.untold("powered down", "the story's first words say it")
shown.untold("powers down", "the player asked for it; the stage tables show it")
shown.untold("real", "the stage tables show it")
shown.untold("released", "the stage tables show it")


def power_down_repairs(ctx: TurnContext) -> None:
    for robot in ctx.robots:
        if robot.pos is not None and robot.powered_down:
            ctx.emit(robot, "powered down")
            if ctx.repair(robot):
                for reg in sorted(robot.locked):
                    ctx.emit(robot, "released", {"register": reg})
                robot.locked.clear()


def turn_real_when_alone(ctx: TurnContext, phase: int) -> None:
    for robot in ctx.robots:
        if (robot.pos is not None and robot.virtual and not robot.first_turn and VIRTUALIZED not in robot.statuses
                and TAMAGOTCHI not in robot.statuses and ctx.alone(robot)):
            robot.virtual = False
            ctx.emit(robot, "real")


def find_winner(ctx: TurnContext, phase: int) -> None:
    total = ctx.board.flag_count
    if not total or ctx.winner:
        return
    for r in ctx.robots:  # (a loop: nobody has finished in almost every phase, no list to make)
        if r.flags >= total and r.pos is not None:
            break
    else:
        return
    done = [r for r in ctx.robots if r.pos is not None and r.flags >= total]
    if done:
        # two robots finishing in one phase: the higher priority card this phase wins
        done.sort(key=lambda r: ctx.current[r.name].priority if r.name in ctx.current else -1, reverse=True)
        ctx.winner = done[0].name
        ctx.emit(done[0], "wins")


def end_first_turn(ctx: TurnContext) -> None:
    for robot in ctx.robots:
        if robot.pos is not None and robot.virtual and robot.first_turn:
            robot.first_turn = False
            if ctx.alone(robot):
                robot.virtual = False
                ctx.emit(robot, "real")


def reenter(ctx: TurnContext) -> None:
    for robot in ctx.robots:
        if robot.pos is not None:
            continue
        if robot.lives <= 0:
            if robot.destroyed:
                ctx.emit(robot, "out")
            continue
        if robot.archive is None:
            continue
        ctx.place(robot, robot.archive, ctx.reentry.get(robot.name))
        robot.damage = 2
        robot.virtual = True
        robot.first_turn = True
        robot.locked.clear()
        ctx.emit(robot, "re-enter", {"at": square_name(robot.archive)}, facing="NESW"[robot.facing])


def power_down(ctx: TurnContext) -> None:
    for robot in ctx.robots:
        if robot.pos is None:
            robot.powered_down = False
            continue
        robot.powered_down = robot.power_down_next
        robot.power_down_next = False
        if robot.powered_down:
            ctx.emit(robot, "powers down")


def fuse(ctx: TurnContext) -> None:
    for robot in ctx.robots:
        if robot.pos is None:
            robot.locked.clear()
            continue
        if robot.damage < 5 and not robot.locked and not robot.option_data:  # nothing fused, held or to release
            robot.locked = {}
            continue
        program = ctx.programs.get(robot.name) or []
        keep: dict[int, Card] = {}
        for reg in locked_registers(robot.damage):
            card = robot.locked.get(reg)
            if card is None and reg <= len(program):
                card = program[reg - 1]
            if card is not None:
                keep[reg] = card
        held = robot.option_data.get(HELD)
        if held:  # registers a board element holds into the next turn (melting beams)
            for reg_text, ends in list(held.items()):
                reg = int(reg_text)
                if ends > 1 and reg in robot.locked:
                    keep.setdefault(reg, robot.locked[reg])
                if ends > 1:
                    held[reg_text] = ends - 1
                else:
                    del held[reg_text]
            if not held:
                del robot.option_data[HELD]
        for reg in sorted(robot.locked):
            if reg not in keep:
                ctx.emit(robot, "released", {"register": reg})
        robot.locked = keep


#: ctx.notes key: the moves option weapons ordered in the laser step: (robot name, direction, shooter)
OPTION_PUSHES = "option pushes"


def option_pushes(ctx: TurnContext, phase: int) -> None:
    """Robots moved by options (pressor and tractor beams, the mini howitzer) move one square now,
    meeting what they enter (a pit swallows them)."""
    moves = ctx.notes.pop(OPTION_PUSHES, None)
    if not moves:
        return
    for name, d, by in moves:
        robot = ctx.by_name[name]
        if robot.pos is not None:
            try_step(ctx, robot, d, PUSH, by=by)


#: core steps needed only when some robot carries an option or a status
OPTION_CORE: dict[str, Callable[[TurnContext, int], None]] = {"lasers.option_pushes": option_pushes}

CORE_PHASE: dict[str, Callable[[TurnContext, int], None]] = {
    "lasers.fire": robot_lasers,
    "checkpoints.turn_real": turn_real_when_alone,
    "checkpoints.winner": find_winner,
}
CORE_TURN: dict[str, Callable[[TurnContext], None]] = {
    "start.power_down": power_down_repairs,
    "end.turn_real": end_first_turn,
    "end.reentry": reenter,
    "end.power_down": power_down,
    "end.fuse": fuse,
}
