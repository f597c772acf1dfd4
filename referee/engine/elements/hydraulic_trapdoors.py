"""Hydraulic trapdoors (RoboFactory): a trapdoor that holds so many robots and gives way under one more.

A hydraulic trapdoor is one or more squares with the same ``door`` number (the rule texts show them
1, 4 or 9 squares big); its ``carry`` (1-8) is how many real robots it holds. When a real robot ends a
move on one of its squares (its card's move, a push, a belt...) and the door then holds more real robots
than it can carry, it opens at once under every other robot on it (virtual ones too: they fall and
are destroyed) and shuts again: the robot that set it off is left alone on it. A robot passing over it
(its card's squares, a hydraulic pusher's push going on) does not set it off: "if one more robot tries
to end his move on it". Virtual robots weigh nothing (they never set it off); flying robots are above
it. It acts with the pits. A robot pushed across it by another robot's card passes over it too (rules version
4: the push goes on while the card does; it weighs on the door only if the card's squares end with it there).
House rule ``trapdoor_on_passing`` (the reading of rules version 2): a robot passing over it sets it off
too; ``trapdoor_pushed_across`` (version 3): a robot pushed onto it sets it off at once.
"""

from __future__ import annotations

from functools import partial

from .. import shown
from ..cards import Card
from ..context import TurnContext
from ..conveying import register_pushed_onto
from ..geometry import Square
from ..hooks import on
from ..kinds import Field, Kind
from ..movement import CARD_MOVE, PUSH, CardMove, MovePlan, move_of, passing, track_card_moves
from ..state import FLYING, Robot
from ..timing import ENTER, STOP

shown.cause("trapdoor", into="through a trapdoor")

NAME = "hydraulic_trapdoor"


def load(ctx: TurnContext, robot: Robot, came_from: Square, d: int) -> None:
    """A robot entering it: it sets the door off unless it is only passing over (its move goes on). A robot
    pushed onto it by another robot's card ends its move when that card's squares are over: it sets the door
    off then if it is still there (house rule ``trapdoor_pushed_across``, rules version 3: at once)."""
    if robot.virtual or (not ctx.rules.trapdoor_on_passing and passing(ctx, robot)):
        return
    carrier = ctx.notes.get(CARD_MOVE)
    if (not ctx.rules.trapdoor_pushed_across and isinstance(carrier, CardMove) and carrier.stepping
            and carrier.robot != robot.name and (move := move_of(ctx, robot)) is not None and move.cause == PUSH):
        carrier.after_squares.append(partial(_ends_here, robot=robot, square=robot.pos))
        return
    set_off(ctx, robot)


def _ends_here(ctx: TurnContext, robot: Robot, square: Square | None) -> None:
    """The card that pushed ``robot`` onto the door has moved its squares: if the robot is still there, its
    push ended on the door."""
    if robot.pos == square and robot.pos is not None:
        set_off(ctx, robot)


def settle(ctx: TurnContext, robot: Robot, card: Card, plan: MovePlan) -> None:
    """A robot whose card's move ends on it (having moved) puts its weight on it."""
    if robot.virtual or robot.pos == plan.start or ctx.rules.trapdoor_on_passing:
        return
    set_off(ctx, robot)


def pushed(ctx: TurnContext, moved: list[tuple[Robot, int]]) -> None:
    """Robots pushers pushed onto it weigh on it where their push ended."""
    for robot, _ in moved:
        if robot.pos is not None and not robot.virtual:
            set_off(ctx, robot)


def set_off(ctx: TurnContext, robot: Robot) -> None:
    """If the door ``robot`` stands on now holds more real robots than it carries, it opens under the others."""
    layer = ctx.board.layer(NAME)
    sq = robot.pos
    if sq not in layer:
        return
    el = layer[sq][0]
    door = {at for at, els in layer.items() if els[0]["door"] == el["door"]}
    on_it = [r for r in ctx.robots if r.pos in door and FLYING not in r.statuses]
    if sum(1 for r in on_it if not r.virtual) <= el["carry"]:
        return
    for other in on_it:
        if other is not robot:
            ctx.destroy(other, "trapdoor")


register_pushed_onto(NAME, pushed)
track_card_moves(NAME)


HYDRAULIC_TRAPDOOR = Kind(
    name=NAME,
    doc=('a square of hydraulic trapdoor `door` (1-9; its squares share the number) that carries `carry` (1-8, '
         'default 1) real robots: a real robot ending a move on it so that it holds more sets it off: every other '
         'robot on the door falls, and it is left alone on the shut door'),
    key='H1 hydraulic trapdoor',
    fields=(Field("carry", "int", required=False, default=1, lo=1, hi=8),
            Field("door", "int", required=False, default=1, lo=1, hi=9)),
    summary="a hydraulic trapdoor: one robot more than it carries opens it under the others",
    group="floor",
    hooks=(on("move.pits", load, ENTER), on("move.trapdoor_weight", settle, STOP)),
    glyph=lambda e: f"H{e['carry']}",
    rank=49,
    legend=lambda e: f"hydraulic trapdoor {e['door']}, carries {e['carry']}",
)
