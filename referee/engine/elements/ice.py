"""Ice (RoboFactory): a robot on ice plays its cards on the spin chart and keeps its momentum.

A robot that starts a card on ice does not execute the card itself: the card is added to its
momentum, kept for the rest of the turn while it stays on ice. A movement card adds its squares
the way it would move (Back-Up: backwards), a turn card adds its turn to the spin. The robot then
moves by the whole momentum, the north-south part first, then the east-west part (pushing robots
as a card does), and turns by the spin. Whatever stops a part (a wall, a robot that cannot be
pushed) cancels that part of the momentum; leaving the ice ends the move and loses the momentum.
The card that brings a robot onto ice is executed normally: momentum starts at the next card.
"""

from __future__ import annotations

from .. import timing
from ..cards import Card
from ..context import TurnContext
from ..geometry import DC, DR
from ..hooks import on
from ..kinds import Kind
from ..movement import CARD, GONE, MOVED, MovePlan, try_step
from ..state import Robot

# the steps of the timing table only this kind acts in, each right after the step named
timing.declare("move.ice", timing.CARD, "robots starting on ice slide", after="move.padded")


def _note(robot: Robot) -> str:
    return f"ice {robot.name}"


def skate(ctx: TurnContext, robot: Robot, card: Card, plan: MovePlan) -> None:
    ice = ctx.board.layer("ice")
    start = robot.pos
    # momentum kept from an earlier card of this turn, if the robot has not been moved off since
    dr, dc, spin, where = ctx.notes.get(_note(robot), (0, 0, 0, None))
    if where != start:
        dr, dc, spin = 0, 0, 0
    if card.type.turn:
        spin = (spin + plan.turn) % 4
    else:
        dr += DR[plan.direction] * plan.squares
        dc += DC[plan.direction] * plan.squares
    plan.done = True
    for d, count in ((0 if dr > 0 else 2, abs(dr)), (1 if dc > 0 else 3, abs(dc))):
        for _ in range(count):
            result = try_step(ctx, robot, d, CARD, priority=card.priority)
            if result == GONE:
                ctx.notes.pop(_note(robot), None)
                return
            if result != MOVED:
                ctx.flush_moves()
                ctx.emit(robot, "blocked", card=str(card))
                if d in (0, 2):
                    dr = 0
                else:
                    dc = 0
                break
            if robot.pos not in ice:  # off the ice: the move ends, the momentum is lost
                ctx.notes.pop(_note(robot), None)
                return
    ctx.flush_moves()
    if spin:
        ctx.turn(robot, spin, card=str(card))
    ctx.notes[_note(robot)] = (dr, dc, spin, robot.pos)


ICE = Kind(
    name="ice",
    doc=('ice: a robot starting a card on it plays the card on the spin chart: the card adds to the momentum '
         'it keeps while on ice (squares one way, quarter turns of spin), then it moves by the whole momentum '
         '(north-south part first) and turns by the spin; leaving the ice ends the move and the momentum'),
    key="ice ice",
    summary="ice: cards add to a momentum kept while on ice; the robot moves and spins by the whole momentum",
    group="floor",
    hooks=(on("move.ice", skate),),
    glyph=lambda e: "ice",
    rank=142,
)
