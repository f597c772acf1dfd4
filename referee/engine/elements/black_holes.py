"""Black holes (RoboFactory): the hole is a pit, and right before the gears turn it pulls every robot in
its row and column one square closer, across its whole board: "the hole affects the whole board, so its
range can be up to 11 squares" (on a course, its own board only: rules version 4; house rule
``black_hole_whole_line``, version 3: the whole line across the course).

The pull reaches through walls, but a robot cannot be pulled through one: a wall on its way holds it.
Otherwise it is pulled as by a magnet (all holes at once, no pushing, facing kept; a robot pulled two
ways stays); a robot pulled into the hole falls. Pulls are logged ``pulled to r4c5``.
"""

from __future__ import annotations

from .. import reach, shown, timing
from ..context import TurnContext
from ..geometry import DC, DR, Square
from ..hooks import on
from ..kinds import Kind
from .magnets import pull_all, pull_index, pull_toward
from .pits import fall

# what moved a robot, as the report and the story tell it (engine/shown.py)
shown.mover("pulled", "black hole", "pulled by a black hole", step="board.black_holes")

# the steps of the timing table only this kind acts in, each right after the step named
timing.declare("board.black_holes", "black holes pull robots in line one square closer", after="board.ventilators")


def _line(ctx: TurnContext, source: Square, d: int) -> tuple[Square, ...]:
    board = ctx.board
    out = []
    r, c = source[0] + DR[d], source[1] + DC[d]
    while 1 <= r <= board.height and 1 <= c <= board.width:
        out.append((r, c))
        r, c = r + DR[d], c + DC[d]
    return tuple(out) if ctx.rules.black_hole_whole_line else board.within_part(source, out)


def swallow(ctx: TurnContext, phase: int) -> None:
    key = f"black hole lines {ctx.rules.black_hole_whole_line}"   # the lines depend on the board and that rule only
    made = ctx.board.cache.get(key)
    if made is None:
        every = [(sq, [(d, _line(ctx, sq, d)) for d in range(4)]) for sq in sorted(ctx.board.layer("black_hole"))]
        made = ctx.board.cache[key] = (every, pull_index(every))
    fields, pulls = made
    if ctx.rules.order_free:  # all at once, as magnets (rules version 2: one hole after another)
        pull_all(ctx, fields, pulls=pulls)
        return
    for sq, lines in fields:
        pull_toward(ctx, sq, lines)


# "the hole affects the whole board, so its range can be up to 11 squares" (ruling 14.6): its own board of a
# course (rules version 3, house rule ``black_hole_whole_line``: the whole line across the course)
reach.declare("black_hole", reach.Reach(reach.OWN_BOARD, "14.6", wider="black_hole_whole_line",
                                        what="pulls robots in its row and column, through walls"))


BLACK_HOLE = Kind(
    name="black_hole",
    doc=('a pit that, right before the gears turn, pulls every robot in its row and column one square closer, '
         'across the whole board (the pull passes walls, robots do not)'),
    key='(@) black hole',
    summary="a pit pulling every robot in its row and column one square closer before the gears turn",
    group="floor",
    hooks=(on("move.pits", fall),),
    steps={"board.black_holes": swallow},
    glyph=lambda e: "(@)",
    rank=152,
)
