"""Pushers: on their active phases, push the robot on their square one square toward ``dir``."""

from __future__ import annotations

from collections import Counter

from ..context import TurnContext
from ..geometry import DC, DR
from ..kinds import Field, Kind
from ..movement import PUSHER, try_step

ARROWS = "^>v<"


def push(ctx: TurnContext, phase: int) -> None:
    pushes = []
    for sq, els in ctx.board.layer("pusher").items():
        for el in els:
            if phase in el["phases"]:
                pushes.extend((r, el["dir"]) for r in ctx.robots_at(sq))
    if not pushes:
        return
    # two pushers pushing real robots into one square: neither moves
    aims = Counter((r.pos[0] + DR[d], r.pos[1] + DC[d]) for r, d in pushes if not r.virtual and r.pos)
    for robot, d in pushes:
        if robot.pos is None:
            continue
        if not robot.virtual and aims[(robot.pos[0] + DR[d], robot.pos[1] + DC[d])] > 1:
            ctx.emit(robot, "obstruction encountered")
            continue
        try_step(ctx, robot, d, PUSHER, by="pusher")


PUSHER_KIND = Kind(
    flat=False,
    name="pusher",
    fields=(Field("dir", "dir"), Field("phases", "phases")),
    summary="pushes a robot on its square one square toward dir in the listed register phases",
    steps={"board.pushers": push},
    glyph=lambda e: f"P{ARROWS[e['dir']]}" + ("o" if e["phases"] == (1, 3, 5) else
                                             "e" if e["phases"] == (2, 4) else "*"),
    rank=50,
    legend=lambda e: f"pusher {'^>v<'[e['dir']]} phases {','.join(map(str, e['phases']))}",
)
