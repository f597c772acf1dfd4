"""Hydraulic pushers: in their active register phases they push the robot on their square toward
``dir`` square by square until a wall stops it or it leaves the board (or falls).

They push with the ordinary pushers' step, after the ordinary pushers, one hydraulic pusher after the
other in board order (row, then column). Real robots in the way are pushed along as a robot pushes them;
the push stops when the chain cannot move. Virtual robots are pushed through robots.
"""

from __future__ import annotations

from ..context import TurnContext
from ..geometry import ARROWS, Square
from ..kinds import Field, Kind
from ..movement import MOVED, PUSHER, PUSHING, positions, pushed_onto, try_step


def ram(ctx: TurnContext, phase: int) -> None:
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
            ctx.notes[PUSHING] = robot.name  # the squares it crosses are passed over, not where it ends
            try:
                while robot.pos is not None and try_step(ctx, robot, d, PUSHER, by="hydraulic pusher") == MOVED:
                    moved = True
            finally:
                del ctx.notes[PUSHING]
            if not moved and robot.pos is not None:
                ctx.emit(robot, "blocked")
    if before is not None:
        pushed_onto(ctx, before)  # robots pushed onto tilted ground, oil, a hydraulic trapdoor meet it again


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
