"""Ventilators (RoboFactory): in their active register phases, blow the robots in their line away.

A ventilator is mounted on a wall (like a pusher) and blows toward ``dir``. After the pushers, in its
``phases``, every robot in its line (its own square and on toward ``dir`` up to a wall) is blown
``count`` squares that way: the strength of 1-3 ventilators working in parallel. All ventilators of a
phase blow at once, each robot once at most: a robot in the lines of ventilators blowing different ways
stays, one in two lines blowing the same way is blown by the stronger. The robots blown move together a
square at a time, as belts move robots (a line of robots moves as one; two blown into one square both
stay); a blown robot keeps its facing and does not push (a wall or a real robot holds it); blown into a
pit or off the board, it is destroyed. Logged ``blown to r4c5``. (Rules version 2, kept for replays:
ventilators one after another in board order, each line farthest robot first.)
"""

from __future__ import annotations

from .. import looks, reach, shown, timing
from ..context import TurnContext
from ..conveying import convey
from ..events import register_wording
from ..geometry import ARROWS, DC, DR
from ..kinds import Field, Kind
from ..state import Robot
from .magnets import pull_one

# what moved a robot, as the report and the story tell it (engine/shown.py)
shown.mover("blown", "ventilator", "blown by a ventilator")

shown.cause("edge", "off the edge", into="off the edge")

# the steps of the timing table only this kind acts in, each right after the step named
timing.declare("board.ventilators", "active ventilators blow the robots in their line away", after="board.pushers")


register_wording("blown", "blown to {to}")


def blow(ctx: TurnContext, phase: int) -> None:
    if not ctx.rules.order_free:
        blow_in_turn(ctx, phase)
        return
    board = ctx.board
    ways: dict[str, dict[int, int]] = {}  # robot -> direction blown -> the strongest count that way
    taken = {r.pos for r in ctx.robots}
    for sq, els in board.layer("ventilator").items():
        for el in els:
            if phase in el["phases"]:
                d = el["dir"]
                for at in board.ray(sq, d):
                    if at not in taken:  # (most squares of the line are empty)
                        continue
                    for robot in ctx.robots_at(at):
                        got = ways.setdefault(robot.name, {})
                        got[d] = max(got.get(d, 0), el["count"])
    left: dict[str, int] = {}
    moving: list[tuple[Robot, int]] = []
    for robot in ctx.robots:
        blown = ways.get(robot.name)
        if blown is not None and len(blown) == 1:
            ((d, count),) = blown.items()
            moving.append((robot, d))
            left[robot.name] = count
    while moving:
        start = {robot.name: robot.pos for robot, _ in moving}
        convey(ctx, moving, {}, False, "blown")
        for name in start:
            left[name] -= 1
        moving = [(robot, d) for robot, d in moving
                  if robot.pos is not None and robot.pos != start[robot.name] and left[robot.name] > 0]


def blow_in_turn(ctx: TurnContext, phase: int) -> None:
    """Rules version 2: one ventilator after another in board order, farthest robot first."""
    board = ctx.board
    for sq, els in sorted(board.layer("ventilator").items()):
        for el in els:
            if phase not in el["phases"]:
                continue
            d = el["dir"]
            line = board.ray(sq, d)
            for robot in [r for at in reversed(line) for r in ctx.robots_at(at)]:
                for _ in range(el["count"]):
                    pos = robot.pos
                    if pos is None:
                        break
                    ahead = (pos[0] + DR[d], pos[1] + DC[d])
                    if not board.on_board(ahead) and not board.wall(pos, d):
                        if ctx.rules.edge == "fence":
                            ctx.fence(robot)
                        else:
                            ctx.destroy(robot, "edge")
                        break
                    if not pull_one(ctx, robot, d, "blown"):
                        break


# how far it reaches (ruling 14.11)
reach.declare("ventilator", reach.Reach(reach.LINE_OF_SIGHT, "14.11",
                                   what="blows every robot in its line up to a wall"))


VENTILATOR = Kind(
    name="ventilator",
    doc=('a ventilator on a wall blowing toward `dir`: in its `phases`, after the pushers, every robot in its '
         'line (up to a wall) is blown `count` squares that way (all ventilators at once, each robot once; no '
         'pushing)'),
    key='V>2 ventilator',
    fields=(Field("dir", "dir"), Field("phases", "phases"), Field("count", "int", required=False, default=1,
                                                                   lo=1, hi=3)),
    summary="blows the robots in its line count squares toward dir in its active phases, after the pushers",
    steps={"board.ventilators": blow},
    glyph=lambda e: f"V{ARROWS[e['dir']]}{e['count']}",
    rank=164,
    flat=False,
    legend=lambda e: f"ventilator {ARROWS[e['dir']]} x{e['count']} phases {','.join(map(str, e['phases']))}",
)

# the pictures: blowing in its phases (:mod:`referee.engine.looks`)
looks.declare("ventilator", looks.active_in("phases"))
