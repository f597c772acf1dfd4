"""Pneumatic pistons (RoboFactory): floor squares that rise and sink by colour, sliding robots off.

Every piston is ``red`` or ``blue``; all pistons of one colour are in the same position, up or down,
and the two colours are always in opposite positions. A down piston is plain floor. A robot
entering a square with an up piston, in any way (card, push, belt...), pushes it down: every piston
of its colour goes down and every piston of the other colour rises, and a robot standing on a piston
that has just risen slides one square off it toward the piston's ``dir`` (keeping its facing; a
wall or a robot in the way holds it on the piston). A slide onto another up piston sets off the
next switch, so pistons can switch several times in one register phase; a chain stops after
``MAX_CHAIN`` switches set off by one another. The position is board state (``state.BoardState``,
``{"piston": {"red": "up", "blue": "down"}}``), kept from turn to turn; at the start of a game the
red pistons are up.
"""

from __future__ import annotations

from .. import looks, shown, timing
from ..board import Element
from ..context import TurnContext
from ..events import Event, register_wording
from ..geometry import ARROWS, Square, square_name
from ..hooks import on
from ..kinds import Field, Kind
from ..movement import SLIDE, try_step
from ..state import FLYING, BoardState, Robot
from ..timing import ENTER

# what moved a robot, as the report and the story tell it (engine/shown.py)
shown.mover("slide", "piston", "slid off a rising piston", on="piston")

# the steps of the timing table only this kind acts in, each right after the step named
timing.declare("move.pistons", timing.ENTER, "pneumatic pistons", after="move.napalm")


NAME = "piston"
COLOURS = ("red", "blue")
#: switches set off by one another in one chain before the pistons jam
MAX_CHAIN = 8
_CHAIN = "piston chain"
register_wording("piston down", "piston {at} pushed down")
shown.untold("piston down", "no robot's news; the stage tables show it")


def is_up(ctx: TurnContext, colour: str) -> bool:
    """Whether the pistons of ``colour`` are up (at first the red ones are)."""
    return bool(ctx.board_state.get(NAME, colour, "up" if colour == COLOURS[0] else "down") == "up")


def press(ctx: TurnContext, robot: Robot, came_from: Square, d: int) -> None:
    sq = robot.pos
    assert sq is not None
    el = ctx.board.one(NAME, sq)
    assert el is not None
    colour = el["colour"]
    chain = int(ctx.notes.get(_CHAIN, 0))
    if not is_up(ctx, colour) or chain >= MAX_CHAIN:
        return
    other = COLOURS[1] if colour == COLOURS[0] else COLOURS[0]
    ctx.board_state.set(NAME, colour, "down")
    ctx.board_state.set(NAME, other, "up")
    ctx.emit(robot, "piston down", {"at": square_name(sq)}, colour=colour, raised=other)
    ctx.notes[_CHAIN] = chain + 1
    try:
        risen = [(at, els[0]["dir"]) for at, els in sorted(ctx.board.layer(NAME).items()) if els[0]["colour"] == other]
        for at, way in risen:
            for riding in [r for r in ctx.robots if r.pos == at and FLYING not in r.statuses]:
                if riding.pos == at:
                    try_step(ctx, riding, way, SLIDE, push=False)
    finally:
        ctx.notes[_CHAIN] = chain


PISTON = Kind(
    name=NAME,
    doc=('a pneumatic piston of `colour` `red` or `blue` (one colour is up while the other is down; red starts '
         'up): a robot entering an up piston pushes its colour down and raises the other, and robots on the '
         'risen pistons slide one square toward their `dir`; the position is kept from turn to turn'),
    key='R^ piston (R red, B blue)',
    fields=(Field("colour", "choice", choices=COLOURS), Field("dir", "dir")),
    summary="a pneumatic piston: entering an up one lowers its colour and raises the other, sliding robots off",
    group="floor",
    hooks=(on("move.pistons", press, ENTER),),
    glyph=lambda e: ("R" if e["colour"] == "red" else "B") + ARROWS[e["dir"]],
    rank=58,
    legend=lambda e: f"{e['colour']} piston, slides robots {ARROWS[e['dir']]}",
)


def look(el: Element, phase: looks.Phase, state: BoardState) -> str:
    """The pictures: a piston is up or down (the red ones up at first)."""
    colour = el["colour"]
    return str(state.get(NAME, colour, "up" if colour == COLOURS[0] else "down"))


def _pressed(state: BoardState, ev: Event) -> None:
    data = ev.data or {}
    state.set(NAME, str(data["colour"]), "down")
    state.set(NAME, str(data["raised"]), "up")


looks.declare(NAME, look, {"piston down": _pressed})
