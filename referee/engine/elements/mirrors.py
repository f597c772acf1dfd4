"""Mirrors (RoboFactory): a robot looking into a mirror executes its card mirrorwise.

A mirror stands on sides of a square like a wall (it blocks robots and beams) and reflects on both
faces. A robot sees it when it faces it along its row or column with no wall and no real robot in
between, at any distance. A robot that sees a mirror when its card is executed plays the card
mirrored: a turn goes the other way (a U-turn stays a U-turn), a forward move goes backwards and a
back-up forwards, the same number of squares (logged ``card mirrored``). Fog and smoke hide it.
When lasers fire, a robot that sees a mirror shoots its own mirror image: its beam comes back and
hits it for 1 damage.
"""

from __future__ import annotations

from .. import reach, shown, timing
from ..board import Board, Element
from ..cards import Card
from ..context import TurnContext
from ..events import register_wording
from ..geometry import Square, opposite, step
from ..kinds import Field, Kind
from ..movement import MovePlan
from ..state import Robot
from ..timing import CARD
from .lasers import blind_squares

# the steps of the timing table only this kind acts in, each right after the step named
timing.declare("move.mirrors", timing.CARD, "robots facing a mirror execute their card mirrored", after="move.crumbly")


register_wording("mirrored", "card mirrored")
shown.untold("mirrored", "the moves it made are told; the stage tables show the card")

FACES = "mirror faces"


def _install(board: Board, el: Element) -> None:
    faces = board.cache.setdefault(FACES, set())
    for side in el["sides"]:
        board.add_wall(el.at, side)
        faces.add((el.at, side))
        faces.add((step(el.at, side), opposite(side)))


def sees_mirror(ctx: TurnContext, robot: Robot) -> bool:
    """Whether the robot faces a mirror along its row or column, with no real robot in between."""
    pos = robot.pos
    if pos is None:
        return False
    between = _view(ctx.board, pos, robot.facing)
    if between is None:
        return False
    return not any(r.pos in between and not r.virtual for r in ctx.robots if r is not robot)


def _view(board: Board, pos: Square, facing: int) -> frozenset[Square] | None:
    """The squares between ``pos`` and the mirror a robot there facing ``facing`` sees on the empty floor, or None
    when it sees none (made once per board, square and facing)."""
    table: dict[tuple[Square, int], frozenset[Square] | None] | None = board.cache.get("mirror views")
    if table is None:
        table = board.cache["mirror views"] = {}
    key = (pos, facing)
    if key in table:
        return table[key]
    squares = board.ray(pos, facing)
    found: frozenset[Square] | None = None
    if squares and (squares[-1], facing) in board.cache.get(FACES, ()) \
            and blind_squares(board).isdisjoint(squares):  # no fog or smoke on the way, or around it
        found = frozenset(squares[1:])
    table[key] = found
    return found


def mirror_card(ctx: TurnContext, robot: Robot, card: Card, plan: MovePlan) -> None:
    if not sees_mirror(ctx, robot):
        return
    if card.type.turn:
        plan.turn = -plan.turn % 4
    else:
        plan.direction = opposite(plan.direction)
    ctx.emit(robot, "mirrored", card=str(card))


def _finish(board: Board) -> None:
    """Hook the mirrored cards at every square from which a mirror can be seen (walls allowing)."""
    for sq, side in sorted(board.cache.get(FACES, ())):
        if board.on_board(sq):
            for seen_from in board.ray(sq, opposite(side)):
                board.add_hook("move.mirrors", seen_from, mirror_card, CARD)


def own_image(ctx: TurnContext, phase: int) -> None:
    for robot in ctx.robots:
        if robot.pos is not None and not robot.virtual and not robot.powered_down and sees_mirror(ctx, robot):
            ctx.hit_later(robot, 1, robot.name, opposite(robot.facing))


# how far it reaches (ruling 14.9)
reach.declare("mirror", reach.Reach(reach.LINE_OF_SIGHT, "14.9",
                                   what="at any distance: a robot facing it along its row or column, nothing between, "
                                        "sees it"))


MIRROR = Kind(
    name="mirror",
    doc=('a mirror on those sides of the square: a wall that reflects on both faces. A robot facing it along '
         'its row or column (nothing in between) executes its cards mirrored (turns the other way, moves '
         'backwards, back-ups forwards) and is hit by its own laser, reflected, for 1 damage'),
    key='|M mirror',
    fields=(Field("sides", "sides"),),
    summary="a two-faced mirror on the given sides: robots facing it play cards mirrored and shoot themselves",
    install=_install,
    finish=_finish,
    steps={"lasers.fire": own_image},
    glyph=lambda e: "|M",
    rank=157,
    legend=lambda e: "mirror on " + " ".join("NESW"[s] for s in e["sides"]),
)
