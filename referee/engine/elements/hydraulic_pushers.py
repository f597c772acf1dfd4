"""Hydraulic pushers: in their active register phases they push the robot on their square toward
``dir`` square by square until a wall stops it or it leaves the board (or falls).

They push with the ordinary pushers' step, after the ordinary pushers, all at once: square by square, every
robot still pushed moving one square together, with the ordinary pushers' conflict rules (two aimed at one
square, or at each other's squares, both stop). Real robots in the way are pushed along as a robot pushes
them; a push stops when its square cannot be gained. Virtual robots are pushed through robots. (Rules
version 2, kept for replays: one hydraulic pusher after the other in board order, row then column.)
"""

from __future__ import annotations

from .. import looks, shown
from ..context import TurnContext
from ..conveying import positions, pushed_onto
from ..geometry import ARROWS, Square
from ..kinds import Field, Kind
from ..movement import MOVED, PUSHER, PUSHING, try_step
from .pushers import aimed, push_at_once

# what moved a robot, as the report and the story tell it (engine/shown.py)
shown.mover("pushed", "hydraulic pusher", "pushed by a hydraulic pusher", by="hydraulic pusher")


def ram(ctx: TurnContext, phase: int) -> None:
    """All active hydraulic pushers push at once, square by square, as the ordinary pushers push one square:
    each round every robot still being pushed moves one square together with the others (two aimed at one
    square, or at each other's squares, both stop; a robot in the way is pushed along as by a robot);
    a robot stops when its square cannot be gained. Then the robots pushed onto tilted ground, oil or a
    hydraulic trapdoor meet it."""
    if not ctx.rules.order_free:
        ram_in_turn(ctx, phase)
        return
    rams = aimed(ctx, "hydraulic_pusher", phase)  # (a robot pushed two ways stays)
    if not rams:
        return
    by_name = ctx.by_name
    before = positions(ctx)
    rammed = set(rams)
    moved: set[str] = set()
    try:
        for _ in range(ctx.board.width + ctx.board.height):
            if not rams:
                break
            ctx.notes[PUSHING] = set(rams)  # the squares they cross are passed over, not where they end
            start = {name: by_name[name].pos for name in rams}
            push_at_once(ctx, rams, by="hydraulic pusher", quiet=True)
            rams = {name: d for name, d in rams.items()
                    if (pos := by_name[name].pos) is not None and pos != start[name]}
            moved |= set(rams)
    finally:
        ctx.notes.pop(PUSHING, None)
    for robot in ctx.robots:
        if robot.name in rammed and robot.name not in moved and robot.pos is not None:
            ctx.emit(robot, "blocked")
    pushed_onto(ctx, before)  # robots pushed onto tilted ground, oil, a hydraulic trapdoor meet it again


def ram_in_turn(ctx: TurnContext, phase: int) -> None:
    """Rules version 2: one hydraulic pusher after another in board order (row, then column)."""
    before: dict[str, Square | None] | None = None
    for sq, els in sorted(ctx.board.layer("hydraulic_pusher").items()):
        active = [el for el in els if phase in el["phases"]]
        if not active:
            continue
        d = active[0]["dir"]
        for robot in ctx.robots_at(sq):
            if before is None:
                before = positions(ctx)
            moved = False
            ctx.notes[PUSHING] = {robot.name}
            try:
                while robot.pos is not None and try_step(ctx, robot, d, PUSHER, by="hydraulic pusher") == MOVED:
                    moved = True
            finally:
                del ctx.notes[PUSHING]
            if not moved and robot.pos is not None:
                ctx.emit(robot, "blocked")
    if before is not None:
        pushed_onto(ctx, before)


HYDRAULIC_PUSHER = Kind(
    flat=False,
    name="hydraulic_pusher",
    doc=('in the listed register phases, after the ordinary pushers, pushes a robot on its square toward `dir` '
         'square by square until a wall or a robot that cannot move stops it, or it leaves the board'),
    key='H^o hydraulic pusher (o=1,3,5 e=2,4)',
    fields=(Field("dir", "dir"), Field("phases", "phases")),
    summary="pushes a robot on its square toward dir until a wall stops it, in the listed register phases",
    steps={"board.pushers": ram},
    glyph=lambda e: f"H{ARROWS[e['dir']]}" + ("o" if e["phases"] == (1, 3, 5) else
                                             "e" if e["phases"] == (2, 4) else "*"),
    rank=51,
    legend=lambda e: f"hydraulic pusher {ARROWS[e['dir']]} phases {','.join(map(str, e['phases']))}",
)

# the pictures: pushing in its phases (:mod:`referee.engine.looks`)
looks.declare("hydraulic_pusher", looks.active_in("phases"))
