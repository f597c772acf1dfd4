"""Jacks in the box (RoboFactory): a spring under the floor that slings a robot six squares away.

In every register phase, right after the particle accelerators and before the belts, the jack pops
out under a robot standing on it. In phases 1 to 4 it slings the robot six squares the way the box
shows for that phase: ``dir`` in phase 1, then a quarter turn further ``turn`` (left or right) each
phase after, as the numbers round the box go. The robot flies over walls, robots and whatever lies
between, keeps its facing and lands: off the board it is lost (under the fence house rule it is held
back at the jack and takes the fence's 2 damage); on a square a real robot holds, it lands on the
nearest free square short of it (back toward the jack); on a pit it falls in. In phase 5 the robot
goes straight up and lands on the jack again, taking the box's ``damage`` (0 to 2, default 0: the
rough landing is the rule texts' option).
"""

from __future__ import annotations

from .. import reach, shown, timing
from ..board import Element
from ..context import TurnContext
from ..events import register_wording
from ..geometry import ARROWS, DC, DR, Square, square_name
from ..kinds import Field, Kind
from ..movement import enter
from ..state import Robot

# what moved a robot, as the report and the story tell it (engine/shown.py)
shown.mover("slung", "jack in the box", "slung by a jack in the box")

shown.cause("jack in the box")
shown.cause("edge", "off the edge", into="off the edge")

# the steps of the timing table only this kind acts in, each right after the step named
timing.declare("board.jacks", "jacks pop out", after="board.particle_accelerators")


SLING = 6
register_wording("slung", "slung to {to}")
register_wording("popped", "popped up, lands again")
shown.untold("popped", "no square changed; the stage tables show it")


def direction(el_dir: int, turn: str, phase: int) -> int:
    """The way the jack slings in a register phase 1-4."""
    step = 1 if turn == "right" else 3
    return (el_dir + step * (phase - 1)) % 4


def pop(ctx: TurnContext, phase: int) -> None:
    jacks = ctx.board.layer("jack")
    # who stands on a jack as it pops: a robot slung onto another jack is not slung again this phase
    riders = sorted(((robot.pos, i, robot) for i, robot in enumerate(ctx.robots) if robot.pos in jacks),
                    key=lambda item: (item[0], item[1]))
    for sq, _, robot in riders:
        if robot.pos != sq or sq is None:
            continue
        el = jacks[sq][0]
        if phase == 5:
            ctx.emit(robot, "popped")
            ctx.damage(robot, el["damage"], "jack in the box")
        else:
            _sling(ctx, robot, sq, direction(el["dir"], el["turn"], phase))


def _sling(ctx: TurnContext, robot: Robot, sq: Square, d: int) -> None:
    board = ctx.board
    target = (sq[0] + DR[d] * SLING, sq[1] + DC[d] * SLING)
    if not board.on_board(target):
        if ctx.rules.edge == "fence":
            ctx.fence(robot)
            return
        ctx.emit(robot, "slung", {"to": square_name(target)})
        ctx.destroy(robot, "edge")
        return
    if not robot.virtual:
        back = target
        while back != sq and ctx.real_robot_at(back, exclude=robot) is not None:
            back = (back[0] - DR[d], back[1] - DC[d])
        if back == sq:
            return
        target = back
    ctx.place(robot, target)
    ctx.emit(robot, "slung", {"to": square_name(target)})
    enter(ctx, robot, sq, d)


def _legend(e: Element) -> str:
    ways = "".join(ARROWS[direction(e["dir"], e["turn"], p)] for p in range(1, 5))
    return f"jack in the box: phases 1-4 sling {SLING} squares {ways}, phase 5 up (damage {e['damage']})"


# how far it reaches (ruling 15.13)
reach.declare("jack", reach.Reach(reach.SQUARES, "15.13", squares=6,
                                   what="slings a robot six squares the way the box shows"))


JACK = Kind(
    name="jack",
    doc=('a jack in the box: in every register phase, before the belts, it slings a robot on it six squares, '
         'over everything, toward `dir` in phase 1 and a quarter turn further `turn` each phase after; a robot '
         'landing on a real robot lands short of it, off the board it is lost; in phase 5 it throws the robot '
         'straight up to land on the jack again, with `damage` (0-2) for the rough landing'),
    key='J^ jack in the box',
    fields=(Field("dir", "dir"), Field("turn", "choice", required=False, default="right", choices=("right", "left")),
            Field("damage", "int", required=False, default=0, lo=0, hi=2)),
    summary="a jack in the box: slings a robot on it six squares, a quarter turn further each phase",
    group="floor",
    steps={"board.jacks": pop},
    glyph=lambda e: "J" + ARROWS[e["dir"]] + ("r" if e["turn"] == "right" else "l"),
    rank=60,
    legend=_legend,
)
