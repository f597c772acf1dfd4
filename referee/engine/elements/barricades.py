"""Barricades (RoboFactory): a barrier of crates on sides of a square that robots can break down.

An intact barricade stops robots crossing its side either way, as a wall does (card moves, pushes,
belts), in the walls' step of the robots' moves. Every robot that tries to cross it takes a piece
off: one hit a robot per register phase, however often it tries. At ``strength`` hits (1-3, default
2) the barricade is down for the rest of the game: the robot whose hit breaks it still stops there,
and from then on the side is open floor. The hits are board state (``state.BoardState``): they are
kept from phase to phase and from turn to turn. A barricade is low: lasers pass over it.
"""

from __future__ import annotations

from .. import looks, shown
from ..board import Board, Element
from ..context import TurnContext
from ..events import Event, register_wording
from ..geometry import opposite, square_name, step
from ..kinds import Field, Kind
from ..state import BoardState, Robot
from .sides import one_special_per_side

NAME = "barricade"
register_wording("barricade hit", "barricade {at} hit ({amount} of {number})")
register_wording("barricade down", "barricade {at} broken down")
shown.untold("barricade hit", "a barricade is no robot; the stage tables show it")
shown.untold("barricade down", "a barricade is no robot; the stage tables show it")


def _sides(board: Board) -> dict[tuple[int, int, int], tuple[str, int]]:
    """(row, col, side) face -> (the barricade's name such as ``r3c4 E``, its strength), both faces."""
    table = board.cache.get(NAME)
    if table is None:
        table = board.cache[NAME] = {}
        for sq, els in board.layer(NAME).items():
            for el in els:
                for side in el["sides"]:
                    name = f"{square_name(sq)} {'NESW'[side]}"
                    other = step(sq, side)
                    table[(sq[0], sq[1], side)] = (name, el["strength"])
                    table[(other[0], other[1], opposite(side))] = (name, el["strength"])
    return table


def hits(ctx: TurnContext, name: str) -> int:
    return int(ctx.board_state.get(NAME, name, 0))


def bar(ctx: TurnContext, robot: Robot, d: int) -> bool:
    pos = robot.pos
    assert pos is not None
    found = _sides(ctx.board).get((pos[0], pos[1], d))
    if found is None:
        return True
    name, strength = found
    taken = hits(ctx, name)
    if taken >= strength:
        return True
    mark = f"{NAME}:{ctx.phase}:{robot.name}:{name}"
    if mark not in ctx.notes:
        ctx.notes[mark] = True
        taken += 1
        ctx.board_state.set(NAME, name, taken)
        ctx.emit(robot, "barricade hit", {"at": name, "amount": taken, "number": strength})
        if taken >= strength:
            ctx.emit(robot, "barricade down", {"at": name})
    return False


def _install(board: Board, el: Element) -> None:
    for side in el["sides"]:
        board.add_side_hook("move.walls", el.at, side, bar)


BARRICADE = Kind(
    name=NAME,
    doc=('a barricade on the listed `sides`: it stops robots like a wall until it has taken `strength` hits '
         '(1-3, default 2), one for each robot trying to cross it in a register phase; then it is down for good '
         '(the hits are kept from turn to turn); lasers pass over it'),
    key='bx barricade',
    fields=(Field("sides", "sides"), Field("strength", "int", required=False, default=2, lo=1, hi=3)),
    summary="a barricade on sides of the square: a wall for robots until it has taken strength hits",
    install=_install,
    finish=one_special_per_side,
    glyph=lambda e: "bx",
    rank=20,  # below the floor kinds: a chop shop behind its barricades still shows
    legend=lambda e: f"barricade {''.join('NESW'[s] for s in e['sides'])}, strength {e['strength']}",
)


def look(el: Element, phase: looks.Phase, state: BoardState) -> tuple[int, ...]:
    """The pictures: the hits each of its sides has taken (at most its strength)."""
    return tuple(min(el["strength"], int(state.get(NAME, f"{square_name(el.at)} {'NESW'[side]}", 0)))
                 for side in el["sides"])


def _hit(state: BoardState, ev: Event) -> None:
    args = ev.args or {}
    state.set(NAME, str(args["at"]), int(args["amount"]))


looks.declare(NAME, look, {"barricade hit": _hit})
