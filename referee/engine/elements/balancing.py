"""Balancing platforms (RoboFactory): a platform slopes under its load and the robots on it slide.

A platform is made of squares in five areas: the middle and the four outer areas ``n``, ``e``, ``s``
and ``w`` (``area``); platforms on one board are told apart by ``platform`` (1-9). At the end of the
robots' moves in each register phase (before any board element moves), a platform slopes down to the
outer area with the most robots on it (no slope when it is level: no robot on an outer area, or a tie
for the most), and every robot on the platform slides one square that way, keeping its facing,
farthest downhill first. A sliding robot does not push (a wall or a real robot holds it); one that
slides off the platform takes no damage, but slides into a pit or off the board like any move.
"""

from __future__ import annotations

from .. import shown, timing
from ..context import TurnContext
from ..geometry import DC, DR, Square
from ..kinds import Field, Kind
from .magnets import pull_one

# what moved a robot, as the report and the story tell it (engine/shown.py)
shown.mover("slide", "tilting platform", "slid off a tilting platform", step="board.balancing")

shown.cause("edge", "off the edge", into="off the edge")

# the steps of the timing table only this kind acts in, each right after the step named
timing.declare("board.balancing", "balancing platforms slope under their load, at the end of the robots' moves",
               after=None)


AREAS = ("middle", "n", "e", "s", "w")


def _platforms(ctx: TurnContext) -> dict[int, dict[Square, str]]:
    found = ctx.board.cache.get("platforms")
    if found is None:
        found = {}
        for sq, els in sorted(ctx.board.layer("platform").items()):
            found.setdefault(els[0]["platform"], {})[sq] = els[0]["area"]
        ctx.board.cache["platforms"] = found
    return found


def tilt(ctx: TurnContext, phase: int) -> None:
    board = ctx.board
    for _, areas in sorted(_platforms(ctx).items()):
        aboard = [(r, pos) for r in ctx.robots if (pos := r.pos) is not None and pos in areas]
        if not aboard:  # (the usual case: nobody to tilt)
            continue
        load = dict.fromkeys("nesw", 0)
        for r, pos in aboard:
            if not r.virtual and areas[pos] != "middle":
                load[areas[pos]] += 1
        most = max(load.values())
        heavy = [a for a, n in load.items() if n == most]
        if most == 0 or len(heavy) > 1:
            continue
        d = "nesw".index(heavy[0])
        aboard.sort(key=lambda item: -(item[1][0] * DR[d] + item[1][1] * DC[d]))
        for robot, _ in aboard:
            pos = robot.pos
            if pos is None:
                continue
            if not board.on_board((pos[0] + DR[d], pos[1] + DC[d])) and not board.wall(pos, d):
                if ctx.rules.edge == "fence":
                    ctx.fence(robot)
                else:
                    ctx.destroy(robot, "edge")
                continue
            pull_one(ctx, robot, d, "slide")


PLATFORM = Kind(
    name="platform",
    doc=('a square of balancing platform `platform` (1-9), in its `area` (`middle` or outer `n` `e` `s` `w`): '
         'at the end of the robots\' moves each phase, the platform slopes to the outer area with the most '
         'robots (none on a tie) and every robot on it slides one square that way'),
    key='_n_ platform',
    fields=(Field("area", "choice", choices=AREAS, compass=True),
            Field("platform", "int", required=False, default=1, lo=1, hi=9)),
    summary="a balancing platform square: the platform slopes to its most loaded outer area and robots slide",
    group="floor",
    steps={"board.balancing": tilt},
    glyph=lambda e: f"_{e['area'][0] if e['area'] != 'middle' else '+'}_",
    rank=166,
    legend=lambda e: f"platform {e['platform']} area {e['area']}",
)
