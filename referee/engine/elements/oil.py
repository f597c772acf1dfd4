"""Oil slicks (a kind written only against the engine's hooks).

A movement card executed from oil loses its first square, as in water. A robot whose movement card
ends on oil does not stop there: it keeps sliding the way it was moving, one square at a time,
until it stands on a square without oil, or a wall or a real robot on dry floor in the way stops it.
A robot in the way that stands on oil has no grip: it is pushed ahead (with whatever it pushes in
turn). Sliding off the board or into a pit destroys it, as any move does. A robot pushed by a robot or
conveyed onto oil does not slide. A slide always goes one way, so oil into oil ends at the board's edge.
Robots a pusher or hydraulic pusher pushes onto oil slide on the way they were pushed (the timing
text's "get affected by them (again!)"), all together a square at a time, until off the oil or held (a
wall, a robot on dry floor in the way; a robot on oil in the way is pushed ahead, as in any slide: rules
version 4; house rule ``pusher_slides_hold`` keeps version 3's slides that push nobody); not under the house
rule ``pushed_not_affected``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection

from .. import shown, timing
from ..cards import Card
from ..context import TurnContext
from ..conveying import convey, register_pushed_onto
from ..geometry import DC, DR, Square
from ..hooks import on
from ..kinds import Kind
from ..movement import MOVED, SLIDE, MovePlan, try_step
from ..state import Robot
from ..timing import CARD, STOP
from .water import slow

# what moved a robot, as the report and the story tell it (engine/shown.py)
shown.mover("slide", "oil", "slid on oil", on="oil")

# the steps of the timing table only this kind acts in, each right after the step named
timing.declare("move.oil", timing.STOP, "oil slicks", after="move.ramp_slide")


def slide(ctx: TurnContext, robot: Robot, card: Card, plan: MovePlan) -> None:
    oil = ctx.board.layer("oil")
    if robot.pos == plan.start:
        return
    ctx.flush_moves()
    d = plan.direction
    while (pos := robot.pos) is not None and pos in oil:
        ahead = (pos[0] + DR[d], pos[1] + DC[d])
        if try_step(ctx, robot, d, SLIDE, push=ahead in oil) != MOVED:
            return


def pushed(ctx: TurnContext, moved: list[tuple[Robot, int]]) -> None:
    """Robots pushers pushed onto oil slide on together, a square at a time, until off the oil or held: a wall,
    a robot on dry floor, two aimed at one square or at each other's; a robot on oil in the way has no grip and
    is pushed ahead (house rule ``pusher_slides_hold``, rules version 3: any robot in the way holds them)."""
    oil = ctx.board.layer("oil")
    sliding = [(robot, d) for robot, d in moved if robot.pos in oil]
    for _ in range(ctx.board.width + ctx.board.height):
        if not sliding:
            return
        start = {robot.name: robot.pos for robot, _ in sliding}
        if ctx.rules.pusher_slides_hold:
            convey(ctx, sliding, {}, False, "slide")
        else:
            slide_at_once(ctx, sliding, oil)
        sliding = [(robot, d) for robot, d in sliding
                   if robot.pos is not None and robot.pos != start[robot.name] and robot.pos in oil]


def slide_at_once(ctx: TurnContext, sliding: list[tuple[Robot, int]], oil: Collection[Square]) -> None:
    """One square of slide for every robot of ``sliding`` at once: two real robots aimed at one square, or at
    each other's squares, both stay; one aimed at another sliding robot's square goes after it; a robot in the
    way that does not slide is pushed ahead when it stands on oil and holds the slider on dry floor."""
    def aim(robot: Robot, d: int) -> Square:
        pos = robot.pos
        assert pos is not None
        return (pos[0] + DR[d], pos[1] + DC[d])

    real = [(robot, d) for robot, d in sliding if not robot.virtual]
    aims = Counter(aim(robot, d) for robot, d in real)
    where = {robot.pos: robot for robot, _ in real}
    way = {robot.name: d for robot, d in sliding}
    stay = {robot.name for robot, d in real if aims[aim(robot, d)] > 1}
    stay |= {robot.name for robot, d in real if (other := where.get(aim(robot, d))) is not None
             and other is not robot and aim(other, way[other.name]) == robot.pos}
    pending = [(robot, d) for robot, d in sliding if robot.name not in stay]
    while pending:
        waiting = {robot.name for robot, _ in pending}
        ready = [(robot, d) for robot, d in pending
                 if robot.virtual or (other := where.get(aim(robot, d))) is None or other.name not in waiting]
        if not ready:  # a ring of sliders: nobody can go first
            return
        for robot, d in ready:
            pending.remove((robot, d))
            if robot.pos is not None:
                try_step(ctx, robot, d, SLIDE, push=aim(robot, d) in oil)


register_pushed_onto("oil", pushed)


OIL = Kind(
    name="oil",
    doc=('an oil slick: a movement card executed from it loses its first square; a robot whose movement card '
         'ends on it slides on the way it moved until dry floor, a wall or a robot on dry floor stops it (a robot '
         'on oil in the way is pushed ahead)'),
    key='%%% oil',
    summary="an oil slick: a card executed from it loses its first square; a card ending on it slides on",
    group="floor",
    hooks=(on("move.water", slow, CARD), on("move.oil", slide, STOP)),
    glyph=lambda e: "%%%",
    rank=23,
)
