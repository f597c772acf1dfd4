"""Crossgears: a gear shaped as a cross of five squares that turns 90 degrees every register phase.

A crossgear is written once, at its centre; its four arms are the squares beside it. Just after the
gears (and big gears), it turns a quarter turn (``turn``: left or right): a robot on its centre is
turned as on a gear; a robot on an arm is carried to the next arm round (diagonally: from the south arm
to the west arm when turning right) and turned the same way. Everything on it moves at once.
"""

from __future__ import annotations

from .. import shown
from ..board import Board, Element
from ..context import TurnContext
from ..geometry import NotationError, Square, square_name, step
from ..kinds import KINDS, Field, Kind

# what moved a robot, as the report and the story tell it (engine/shown.py)
shown.mover("carried", "crossgear", "carried by a crossgear", on="crossgear")


def _install(board: Board, el: Element) -> None:
    layer = board.layers["crossgear"]
    for d in range(4):
        arm = step(el.at, d)
        if not board.on_board(arm):
            raise NotationError(f"the crossgear's {'NESW'[d]} arm, {square_name(arm)}, is off the board")
        layer.setdefault(arm, []).append(Element("crossgear", arm, {**el.fields, "arm": d, "centre": el.at}))


def _finish(board: Board) -> None:
    for sq, els in board.layer("crossgear").items():
        if len(els) > 1:
            raise NotationError(f"{square_name(sq)} is part of two crossgears")
        for kind, layer in board.layers.items():
            if kind != "crossgear" and KINDS[kind].group == "floor" and sq in layer:
                raise NotationError(f"{square_name(sq)} is part of a crossgear and cannot also hold a {kind}")


def _where_to(el: Element, turns: int) -> Square:
    arm = el.fields.get("arm")
    if arm is None:
        return el.at
    return step(el.fields["centre"], (arm + turns) % 4)


def spin(ctx: TurnContext, phase: int) -> None:
    gears = ctx.board.layer("crossgear")
    moves = []
    for robot in ctx.robots:
        if robot.pos in gears:
            el = gears[robot.pos][0]
            turns = 3 if el["turn"] == "left" else 1
            moves.append((robot, _where_to(el, turns), turns))
    carried = [robot for robot, to, _ in moves if to != robot.pos]
    for robot, to, _ in moves:
        ctx.place(robot, to)
    for robot, to, turns in moves:
        if robot in carried:
            ctx.emit(robot, "carried", {"to": square_name(to)})
        ctx.turn(robot, turns)


CROSSGEAR = Kind(
    name="crossgear",
    doc=('a crossgear of five squares: its centre here and the four squares beside it, its arms; after the gears '
         'it turns a quarter turn `left` or `right` each register phase, carrying robots on its arms to the '
         'next arm round and turning every robot on it the same way'),
    key='(+) crossgear',
    fields=(Field("turn", "choice", choices=("left", "right")),),
    summary="a cross of five squares (centre and arms) turning 90 degrees left or right each register phase",
    group="floor",
    install=_install,
    finish=_finish,
    steps={"board.gears": spin},
    glyph=lambda e: "(+)" if "arm" not in e.fields else ("<+" if e["turn"] == "left" else "+>"),
    rank=47,
)
