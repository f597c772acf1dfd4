"""Radio beams (RoboFactory): a beam that hands a robot radio-controlled cards for its next program.

A robot entering a square of a radio beam by any move, or turning in it with a turn card, receives a
radio-controlled card, and a robot standing in it when the radio beams act (after the molten ore)
receives another: at most two a register phase. Each radio card is drawn at random (the turn's seeded
generator) from the cards nobody holds, and takes the first of the robot's registers that is free
(not fused, not already held) for the next turn: the card is locked there as a fused register is
(``state.HELD``), so the player programs around it, and the register is freed at the end of that
turn. A robot with no free register receives nothing. Radio beams do no damage; flying robots are
in their reach; virtual robots too.
"""

from __future__ import annotations

from ..cards import Card, locked_registers
from ..context import TurnContext
from ..events import register_wording
from ..geometry import Square
from ..hooks import on
from ..kinds import Kind
from ..state import HELD, Robot
from ..timing import ENTER, ROTATE

NAME = "radio_beam"
register_wording("radio card", "radio card {card} for register {register} next turn")


def receive(ctx: TurnContext, robot: Robot) -> None:
    if robot.pos is None or not ctx.undealt:
        return
    fused = set(locked_registers(robot.damage))
    free = [reg for reg in range(1, 6) if reg not in fused and reg not in robot.locked]
    if not free:
        return
    card = ctx.undealt.pop(ctx.rng.randrange(len(ctx.undealt)))
    reg = free[0]
    robot.locked[reg] = card
    robot.option_data.setdefault(HELD, {})[str(reg)] = 2
    ctx.emit(robot, "radio card", {"card": str(card), "register": reg}, card=str(card))


def tune_in(ctx: TurnContext, robot: Robot, came_from: Square, d: int) -> None:
    receive(ctx, robot)


def tune_turning(ctx: TurnContext, robot: Robot, card: Card) -> None:
    receive(ctx, robot)


def broadcast(ctx: TurnContext, phase: int) -> None:
    beams = ctx.board.layer(NAME)
    for robot in ctx.robots:
        if robot.pos in beams:
            receive(ctx, robot)


RADIO_BEAM = Kind(
    name=NAME,
    doc=('a radio beam across the square: a robot entering it or turning in it, and again a robot in it when the '
         'radio beams act, receives a random card nobody holds, locked in its first free register for the next '
         'turn; no damage'),
    key='((( radio beam',
    summary="a radio beam: robots entering or standing in it get radio cards locked into next turn's program",
    hooks=(on("move.radio_beams", tune_in, ENTER), on("move.radio_beams", tune_turning, ROTATE)),
    steps={"lasers.radio_beams": broadcast},
    glyph=lambda e: "(((",
    rank=27,
)
