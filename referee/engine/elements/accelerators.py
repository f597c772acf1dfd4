"""Particle accelerators (RoboFactory): a ring of squares that whirls the robots on it faster and faster.

Each square of the ring points (``to``: one of the eight ways, diagonals included) at the next square
of the ring, clockwise; the ring must close. At the start of the board elements' moves, every robot
on the ring is moved along it: 1 square in the first register phase it is found on the ring, one
square more in each following phase it is still on it, up to 10 (turns carry on: its speed is kept on
the robot, ``option_data["accelerator"]["speed"]``). A robot already at 10 moves 10 again and takes 1
damage. The ring is the robot's track: walls do not stop it, it is never turned, and each square it
reaches acts on it as on a robot entering it; a real robot on the next square stops it behind that
robot (no pushing). The fastest move first; robots of one speed move together, a square at a time, as belts
move robots (rules version 4; version 3: one after another in seat order). A robot that is not on the ring
when the accelerator acts loses its speed.
"""

from __future__ import annotations

from collections import Counter

from .. import shown, timing
from ..board import Board
from ..context import TurnContext
from ..geometry import NotationError, Square, square_name
from ..kinds import Field, Kind
from ..movement import enter
from ..state import Robot

# what moved a robot, as the report and the story tell it (engine/shown.py)
shown.mover("carried", "particle accelerator", "carried by a particle accelerator", step="board.particle_accelerators")

shown.cause("particle accelerator")

# the steps of the timing table only this kind acts in, each right after the step named
timing.declare("board.particle_accelerators", "particle accelerators", after="board.balancing")


NAME = "accelerator"
WAYS = ("n", "ne", "e", "se", "s", "sw", "w", "nw")
#: way -> (rows, columns, the compass direction an enter hook is told)
STEPS = {"n": (1, 0, 0), "ne": (1, 1, 0), "e": (0, 1, 1), "se": (-1, 1, 2), "s": (-1, 0, 2), "sw": (-1, -1, 2),
         "w": (0, -1, 3), "nw": (1, -1, 0)}
TOP = 10
ARROW = {"n": "^", "ne": "/", "e": ">", "se": "\\", "s": "v", "sw": "/", "w": "<", "nw": "\\"}


def next_square(sq: Square, way: str) -> Square:
    dr, dc, _ = STEPS[way]
    return (sq[0] + dr, sq[1] + dc)


def _finish(board: Board) -> None:
    ring = board.layer(NAME)
    for sq, els in ring.items():
        nxt = next_square(sq, els[0]["to"])
        if nxt not in ring:
            raise NotationError(f"accelerator {square_name(sq)} points {els[0]['to']} to {square_name(nxt)}, "
                                "which is not on the ring: the ring must close")


def whirl(ctx: TurnContext, phase: int) -> None:
    ring = ctx.board.layer(NAME)
    riders = []
    for robot in ctx.robots:
        if robot.pos in ring:
            was = int(robot.option_data.get(NAME, {}).get("speed", 0))
            riders.append((robot, was))
        elif NAME in robot.option_data:
            del robot.option_data[NAME]
    if not riders:
        return
    riders.sort(key=lambda item: -item[1])
    if ctx.rules.seat_free:
        for was in sorted({was for _, was in riders}, reverse=True):
            whirl_together(ctx, [robot for robot, speed in riders if speed == was], was)
        return
    for robot, was in riders:  # rules version 3: equal speeds one after another in seat order
        speed = min(was + 1, TOP)
        robot.option_data[NAME] = {"speed": speed}
        if was >= TOP:
            ctx.damage(robot, 1, "particle accelerator")
        for _ in range(speed):
            if robot.pos is None or robot.pos not in ring:
                break
            here = robot.pos
            way = ring[here][0]["to"]
            nxt = next_square(here, way)
            if not robot.virtual and ctx.real_robot_at(nxt, exclude=robot) is not None:
                break
            ctx.place(robot, nxt)
            ctx.emit(robot, "carried", {"to": square_name(nxt)})
            enter(ctx, robot, here, STEPS[way][2])


def whirl_together(ctx: TurnContext, robots: list[Robot], was: int) -> None:
    """Robots of one speed move along the ring together, a square at a time: a robot whose next square holds a
    rider of the group moving on goes after it; two aimed at one square, a real robot that does not move on, or a
    closed ring of riders stop them for the rest of the phase."""
    ring = ctx.board.layer(NAME)
    speed = min(was + 1, TOP)
    for robot in robots:
        robot.option_data[NAME] = {"speed": speed}
        if was >= TOP:
            ctx.damage(robot, 1, "particle accelerator")
    moving = [r for r in robots if r.pos in ring]
    for _ in range(speed):
        aims = {r.name: next_square(pos, ring[pos][0]["to"]) for r in moving if (pos := r.pos) is not None}
        real_aims = Counter(aims[r.name] for r in moving if not r.virtual)
        held = {r.name for r in moving if not r.virtual and real_aims[aims[r.name]] > 1}
        pending = [r for r in moving if r.name not in held]
        while pending:
            ahead = {r.pos: r for r in pending if not r.virtual}
            ready = [r for r in pending if r.virtual or aims[r.name] not in ahead]
            if not ready:  # a closed ring of riders: nobody can go first
                held |= {r.name for r in pending}
                break
            for robot in ready:
                pending.remove(robot)
                here = robot.pos
                nxt = aims[robot.name]
                if here is None or (not robot.virtual and ctx.real_robot_at(nxt, exclude=robot) is not None):
                    held.add(robot.name)
                    continue
                ctx.place(robot, nxt)
                ctx.emit(robot, "carried", {"to": square_name(nxt)})
                enter(ctx, robot, here, STEPS[ring[here][0]["to"]][2])
        moving = [r for r in moving if r.name not in held and r.pos is not None and r.pos in ring]
        if not moving:
            return


ACCELERATOR = Kind(
    name=NAME,
    doc=('a square of a particle accelerator ring, pointing (`to`, diagonals too) at the next square clockwise: at '
         'the start of the board elements\' moves a robot on the ring is moved along it 1 square, one more each '
         'phase it stays on, up to 10 (kept from turn to turn); at 10 it also takes 1 damage a phase; walls do not '
         'stop it, a robot ahead does, and it is never turned'),
    key='A> particle accelerator',
    fields=(Field("to", "choice", choices=WAYS, compass=True),),
    summary="a particle accelerator ring square: robots on the ring whirl round faster each phase, up to 10",
    group="floor",
    finish=_finish,
    steps={"board.particle_accelerators": whirl},
    glyph=lambda e: "A" + ARROW[e["to"]],
    rank=14,
    legend=lambda e: f"particle accelerator, next square {e['to']}",
    partners=({"kind": NAME, "at": "r4c3", "to": "e"}, {"kind": NAME, "at": "r4c4", "to": "s"},
              {"kind": NAME, "at": "r3c4", "to": "w"}),
)
