"""Doors: on the listed sides of a square, open in the register phases listed in ``open`` and closed in
the others. A closed door is a wall: it stops robots (card moves, pushes, belts, pushers) and every
laser. An open door is an open side.
"""

from __future__ import annotations

from .. import looks
from ..board import Board, Element
from ..context import TurnContext
from ..kinds import Field, Kind
from ..state import BoardState, Robot

PHASES = (1, 2, 3, 4, 5)


def shut(ctx: TurnContext, robot: Robot, d: int) -> bool:
    """A robot crossing a door's side gets through only in a phase the door is open."""
    pos = robot.pos
    assert pos is not None
    closed = ctx.board.phase_walls.get(ctx.phase) if isinstance(ctx.phase, int) else None
    return not closed or (pos[0], pos[1], d) not in closed


def _install(board: Board, el: Element) -> None:
    closed = [p for p in PHASES if p not in el["open"]]
    for side in el["sides"]:
        board.add_phase_wall(el.at, side, closed)
        board.add_side_hook("move.closed_doors", el.at, side, shut)


DOOR = Kind(
    name="door",
    doc=('doors on the listed `sides` of the square: open in the register phases listed in `open`, closed in '
         'the others; a closed door stops robots and lasers like a wall'),
    key='D door',
    fields=(Field("sides", "sides"), Field("open", "phases")),
    summary="doors on the given sides, open in the listed phases; closed, a wall for robots and lasers",
    install=_install,
    glyph=lambda e: "D",
    rank=158,
    legend=lambda e: f"door {''.join('NESW'[s] for s in e['sides'])} open in phases {','.join(map(str, e['open']))}",
)

def look(el: Element, phase: looks.Phase, state: BoardState) -> str:
    """The pictures: open or shut in a register phase, at rest (neither) before and after them."""
    if not isinstance(phase, int):
        return "rest"
    return "open" if phase in el["open"] else "shut"


looks.declare("door", look)
