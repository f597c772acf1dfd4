"""Big turning gears: two squares with a wall between them, like a revolving secret door.

A big gear is written once, at one half, with ``dir`` the side toward its other half; the wall between
the halves is part of it. In every register phase in which any robot stands on either half (virtual or
powered down too), the gear turns 180 degrees just after the small gears: the robots on each half are
carried to the other half and turned round, all at once. A robot facing the wall still faces it.
"""

from __future__ import annotations

from .. import shown
from ..board import Board, Element
from ..context import TurnContext
from ..geometry import NotationError, Square, opposite, square_name, step
from ..kinds import KINDS, Field, Kind

# what moved a robot, as the report and the story tell it (engine/shown.py)
shown.mover("carried", "big gear", "carried round by a big gear", on="big_gear")


def _other_half(el: Element) -> Square:
    return step(el.at, el["dir"])


def _install(board: Board, el: Element) -> None:
    other = _other_half(el)
    if not board.on_board(other):
        raise NotationError(f"the other half of the big gear, {square_name(other)}, is off the board")
    if other in board.layer("big_gear"):
        raise NotationError(f"{square_name(other)} is already part of a big gear")
    board.add_wall(el.at, el["dir"])
    # the other half is drawn and looked up as an element of its own, pointing back
    board.layers["big_gear"].setdefault(other, []).append(
        Element("big_gear", other, {**el.fields, "dir": opposite(el["dir"]), "half": 2}))


def _finish(board: Board) -> None:
    for sq, els in board.layer("big_gear").items():
        if len(els) > 1:
            raise NotationError(f"{square_name(sq)} is part of two big gears")
        for kind, layer in board.layers.items():
            if kind != "big_gear" and KINDS[kind].group == "floor" and sq in layer:
                raise NotationError(f"{square_name(sq)} is part of a big gear and cannot also hold a {kind}")


def revolve(ctx: TurnContext, phase: int) -> None:
    gears = ctx.board.layer("big_gear")
    moves = []
    for robot in ctx.robots:
        if robot.pos in gears:
            moves.append((robot, _other_half(gears[robot.pos][0])))
    for robot, to in moves:
        ctx.place(robot, to)
    for robot, to in moves:
        ctx.emit(robot, "carried", {"to": square_name(to)})
        ctx.turn(robot, 2)


BIG_GEAR = Kind(
    name="big_gear",
    doc=('a big turning gear of two squares, this one and the one toward `dir`, with a wall between them; in '
         'every register phase a robot stands on it, it turns 180 degrees after the small gears: robots on '
         'each half go to the other half, turned round'),
    key='(B) big gear',
    fields=(Field("dir", "dir"),),
    summary="a big gear of two squares (this one and the one toward dir) with a wall between; turns 180 degrees",
    group="floor",
    install=_install,
    finish=_finish,
    steps={"board.gears": revolve},
    glyph=lambda e: "(B)",
    rank=46,
)
