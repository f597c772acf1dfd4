"""Light barriers and flip (green) belts (RoboFactory).

A flip belt carries a robot one square a register phase, after every other belt, the way it runs
now: ``dir`` at the start of the game, or the opposite way. All flip belts run the same way. A light
barrier is a square crossed by a beam of light that does robots no harm. When the flip belts move:

- if a robot stands in a light barrier (it ended its move there, turned there...), the barrier is
  interrupted and no flip belt moves;
- otherwise, if a robot entered a light barrier during this register phase (by any move), or the
  belts were stopped by an interrupted barrier the phase before, every flip belt turns round first;
- then the robots on flip belts are carried one square, all at once (as belts carry: no pushing,
  conflicts cancel); a flip belt never turns a robot, and a flying robot passes over it.

Which way they run and whether they were stopped is board state (``state.BoardState``,
``{"flip_belt": {"reversed": true, "stopped": false}}``), kept from turn to turn.
"""

from __future__ import annotations

from .. import looks, reach, shown, timing
from ..board import Board, Element
from ..context import TurnContext
from ..conveying import convey
from ..events import Event, register_wording
from ..geometry import ARROWS, Square, opposite
from ..hooks import on
from ..kinds import Field, Kind
from ..state import FLYING, BoardState, Robot
from ..timing import ENTER

# what moved a robot, as the report and the story tell it (engine/shown.py)
shown.mover("conveyed", "flip belt", "carried by a flip belt", step="board.flip_belts")

# the steps of the timing table only this kind acts in, each right after the step named
timing.declare("move.light_barriers", timing.ENTER, "light barriers flip the flip belts", after="move.melting_beams")
timing.declare("board.flip_belts", "flip belts", after="board.belts")


FLIP = "flip_belt"
BARRIER = "light_barrier"
_CROSSED = "light barrier crossed"
register_wording("flip belts turn", "the flip belts turn round")
register_wording("flip belts stopped", "a light barrier is interrupted: the flip belts stand still")
shown.untold("flip belts stopped", "no robot's news; the stage tables show it")
shown.untold("flip belts turn", "no robot's news; the stage tables show it")


def cross(ctx: TurnContext, robot: Robot, came_from: Square, d: int) -> None:
    ctx.notes[_CROSSED] = ctx.phase


def reversed_now(ctx: TurnContext) -> bool:
    return bool(ctx.board_state.get(FLIP, "reversed", False))


def flip(ctx: TurnContext, phase: int) -> None:
    board = ctx.board
    barriers = board.layer(BARRIER)
    if any(r.pos in barriers for r in ctx.robots):
        if not ctx.board_state.get(FLIP, "stopped", False):
            ctx.board_state.set(FLIP, "stopped", True)
            ctx.emit(None, "flip belts stopped")
        return
    if ctx.notes.get(_CROSSED) == phase or ctx.board_state.get(FLIP, "stopped", False):
        ctx.board_state.set(FLIP, "reversed", not reversed_now(ctx))
        ctx.board_state.set(FLIP, "stopped", False)
        ctx.emit(None, "flip belts turn")
    belts = board.layer(FLIP)
    riders = [(r, pos) for r in ctx.robots if (pos := r.pos) is not None and pos in belts and FLYING not in r.statuses]
    if riders:
        lanes = _lanes(board, reversed_now(ctx))
        convey(ctx, [(r, lanes[pos]) for r, pos in riders], lanes, False, "conveyed")


def _lanes(board: Board, back: bool) -> dict[Square, int]:
    """Flip belt square -> the way it carries (``back``: turned round), made once per board and way (read only)."""
    key = f"flip belt lanes {back}"
    found: dict[Square, int] | None = board.cache.get(key)
    if found is None:
        found = board.cache[key] = {sq: opposite(els[0]["dir"]) if back else els[0]["dir"]
                                    for sq, els in board.layer(FLIP).items()}
    return found


# how far it reaches (ruling 14.16)
reach.declare("light_barrier", reach.Reach(reach.WHOLE_COURSE, "14.16",
                                   what="a robot in any light barrier turns or stops every flip belt of the course"))


FLIP_BELT = Kind(
    name=FLIP,
    doc=('a flip (green) belt: after every other belt it carries a robot one square toward `dir` or, once the flip '
         'belts have turned round, the opposite way; all flip belts turn round in a phase in which a robot entered '
         'a light barrier, and stand still while a robot stands in one; which way they run is kept from turn to '
         'turn'),
    key='g^ flip belt',
    fields=(Field("dir", "dir"),),
    summary="a flip belt: one square a phase toward dir or back, turned round by robots crossing light barriers",
    group="floor",
    steps={"board.flip_belts": flip},
    glyph=lambda e: "g" + ARROWS[e["dir"]] + ARROWS[opposite(e["dir"])],
    rank=12,
)

LIGHT_BARRIER = Kind(
    name=BARRIER,
    doc=('a light barrier across the square: harmless to robots; a robot entering it turns the flip belts round, '
         'a robot standing in it stops them'),
    key='!! light barrier',
    summary="a light barrier: robots entering it turn the flip belts round; a robot in it stops them",
    hooks=(on("move.light_barriers", cross, ENTER),),
    steps={"board.flip_belts": flip},
    glyph=lambda e: "!!",
    rank=41,
)


def look(el: Element, phase: looks.Phase, state: BoardState) -> bool:
    """The pictures: whether the flip belts run against their ``dir`` now."""
    return bool(state.get(FLIP, "reversed", False))


def _turned(state: BoardState, ev: Event) -> None:
    state.set(FLIP, "reversed", not state.get(FLIP, "reversed", False))
    state.set(FLIP, "stopped", False)


def _stopped(state: BoardState, ev: Event) -> None:
    state.set(FLIP, "stopped", True)


looks.declare(FLIP, look, {"flip belts turn": _turned, "flip belts stopped": _stopped})
