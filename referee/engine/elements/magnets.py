"""Magnets (RoboFactory): after the belts, a magnet pulls every robot in line with it one square closer.

The field runs along the magnet's row and column to the edge of its own board (of a course: rules version 4;
house rule ``magnet_whole_line``, version 3: the whole line across the course), but not through a wall: a robot
behind a wall (as seen from the magnet) is not pulled. Robots nearest the magnet move first, so a
line of robots closes up together. A pulled robot keeps its facing and does not push: a wall or a
real robot (one that did not move) in the way holds it. A robot may be pulled onto the magnet's
square; a robot on it is not pulled. All magnets pull at once, each robot one square at most: a robot
pulled two ways (in line with magnets on different sides) stays, and two robots pulled into one square
(from opposite sides onto the magnet) both stay, as belts settle their conflicts, so neither the board
file's order nor the compass decides. Pulls are logged ``pulled to r4c5``. (Rules version 2, kept for
replays: magnets pulled one after another in board order, each line nearest first, north, east, south,
west.)
"""

from __future__ import annotations

from collections.abc import Iterable

from .. import reach, shown, timing
from ..context import TurnContext
from ..conveying import convey
from ..events import register_wording
from ..geometry import DC, DR, Square, opposite, square_name
from ..kinds import Kind
from ..movement import can_cross, enter
from ..state import Robot

# what moved a robot, as the report and the story tell it (engine/shown.py)
shown.mover("pulled", "magnet", "pulled by a magnet", step="board.magnets")
shown.mover("pulled", "", "pulled")

# the steps of the timing table only this kind acts in, each right after the step named
timing.declare("board.magnets", "magnetic fields pull", after="board.flip_belts")


register_wording("pulled", "pulled to {to}")


def pull_one(ctx: TurnContext, robot: Robot, d: int, event: str = "pulled") -> bool:
    """Move ``robot`` one square toward ``d`` without pushing (logged as ``event``); walls and robots
    hold it, and so does the edge. Whether it moved."""
    pos = robot.pos
    if pos is None or not can_cross(ctx, robot, d):
        return False
    target = (pos[0] + DR[d], pos[1] + DC[d])
    if not ctx.board.on_board(target):
        return False
    if not robot.virtual and ctx.real_robot_at(target, exclude=robot) is not None:
        return False
    robot.pos = target
    ctx.emit(robot, event, {"to": square_name(target)})
    enter(ctx, robot, pos, d)
    return robot.on_board   # (not ``robot.pos``: it was just set, and a type checker takes it as still set)


def pull_toward(ctx: TurnContext, source: Square, lines: Iterable[tuple[int, tuple[Square, ...]]]) -> None:
    """Pull the robots on each line (the squares outward from ``source`` toward a direction) one square
    back toward ``source``, nearest first."""
    for d, squares in lines:
        for sq in squares:
            if sq == source:
                continue
            if any(r.pos == sq for r in ctx.robots):   # (most squares of a line are empty)
                for robot in ctx.robots_at(sq):
                    pull_one(ctx, robot, opposite(d))


#: what a step's pulls do, made once from its fields (:func:`pull_index`): the sources, and square -> the ways
#: robots there are pulled
Pulls = tuple[frozenset[Square], dict[Square, frozenset[int]]]


def pull_index(fields: Iterable[tuple[Square, Iterable[tuple[int, tuple[Square, ...]]]]]) -> Pulls:
    """The sources of ``fields`` (see :func:`pull_all`), and for each square of their lines (a source's own square
    left out) the ways a robot there is pulled."""
    sources: set[Square] = set()
    ways: dict[Square, set[int]] = {}
    for source, lines in fields:
        sources.add(source)
        for d, squares in lines:
            for sq in squares:
                if sq != source:
                    ways.setdefault(sq, set()).add(opposite(d))
    return frozenset(sources), {sq: frozenset(found) for sq, found in ways.items()}


def pull_all(ctx: TurnContext, fields: Iterable[tuple[Square, Iterable[tuple[int, tuple[Square, ...]]]]],
             event: str = "pulled", pulls: Pulls | None = None) -> None:
    """Every pull of the step at once: ``fields`` holds each source square with its lines (the squares
    outward from it toward a direction; ``pulls``: their :func:`pull_index`, if made already). A robot on a
    source is not pulled; one pulled two ways stays; the rest move one square toward their source together,
    with the belts' conflict rules (no pushing)."""
    sources, index = pulls if pulls is not None else pull_index(fields)
    ways: dict[str, set[int]] = {}
    for robot in ctx.robots:   # (a robot's square: the ways of every line through it)
        found = index.get(robot.pos) if robot.pos is not None else None
        if found:
            ways.setdefault(robot.name, set()).update(found)
    if not ways:  # (the usual case: nobody in a line)
        return
    moves = [(robot, next(iter(ways[robot.name]))) for robot in ctx.robots
             if len(ways.get(robot.name, ())) == 1 and robot.pos not in sources]
    if moves:
        convey(ctx, moves, {}, False, event)


def attract(ctx: TurnContext, phase: int) -> None:
    board = ctx.board
    whole = ctx.rules.magnet_whole_line
    key = f"magnet lines {whole}"   # the lines depend on the board and that rule only
    made = board.cache.get(key)
    if made is None:
        every = [(sq, [(d, line if whole else board.within_part(sq, line))
                       for d in range(4) for line in (board.ray(sq, d, include_start=False),)])
                 for sq in sorted(board.layer("magnet"))]
        made = board.cache[key] = (every, pull_index(every))
    fields, pulls = made
    if ctx.rules.order_free:
        pull_all(ctx, fields, pulls=pulls)
        return
    for sq, lines in fields:
        pull_toward(ctx, sq, lines)


# the text gives no range: a board element acts on its own board, as the black hole's text says of board
# elements (ruling 14.5; rules version 3, house rule ``magnet_whole_line``: the whole line across the course)
reach.declare("magnet", reach.Reach(reach.OWN_BOARD, "14.5", wider="magnet_whole_line",
                                    what="pulls robots in its row and column, up to a wall"))


MAGNET = Kind(
    name="magnet",
    doc=('after the belts, pulls every robot in its row and column one square closer (all magnets at once; not '
         'through walls; no pushing; robots keep their facing; a robot pulled two ways, or into a square another '
         'is pulled into, stays)'),
    key='(M) magnet',
    summary="after the belts, pulls every robot in its row and column one square closer (not through walls)",
    steps={"board.magnets": attract},
    glyph=lambda e: "(M)",
    rank=150,
)
