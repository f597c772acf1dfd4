"""Pushers: on their active phases, push the robot on their square one square toward ``dir``."""

from __future__ import annotations

from collections import Counter

from .. import looks, shown
from ..board import Element
from ..context import TurnContext
from ..conveying import meets_pushed, positions, pushed_onto
from ..geometry import ARROWS, DC, DR
from ..kinds import Field, Kind
from ..movement import BLOCKED, PUSHER, try_step

# what moved a robot, as the report and the story tell it (engine/shown.py)
shown.mover("pushed", "pusher", "pushed by a pusher", by="pusher")


def push(ctx: TurnContext, phase: int) -> None:
    """Every active pusher pushes at once.

    Two pushed robots aimed at one square, or at each other's squares, both stay. A robot pushed into
    the square of another pushed robot goes after it; a ring of pushed robots stays put. A robot in
    the way that no pusher pushes is pushed along, as by a robot (and blocks if it cannot move). Then
    the robots pushed onto tilted ground, oil or a hydraulic trapdoor meet it (``conveying.pushed_onto``).
    """
    pushes = aimed(ctx, "pusher", phase)
    if not pushes:
        return
    if not meets_pushed(ctx.board):  # nothing on this board acts on a robot pushed onto it
        push_at_once(ctx, pushes)
        return
    before = positions(ctx)
    push_at_once(ctx, pushes)
    pushed_onto(ctx, before)  # robots pushed onto tilted ground, oil... meet them again


def aimed(ctx: TurnContext, kind: str, phase: int) -> dict[str, int]:
    """Robot name -> the way the active pushers of ``kind`` on its square push it this phase. A robot two
    pushers on its square push different ways stays put (logged ``blocked``; rules version 2: the pusher
    listed last pushed it)."""
    layer = ctx.board.layer(kind)
    if not ctx.rules.order_free:
        last: dict[str, int] = {}
        taken = {r.pos for r in ctx.robots}   # (only the pushers with a robot on them look for it)
        for sq, els in layer.items():
            if sq in taken:
                for el in els:
                    if phase in el["phases"]:
                        for r in ctx.robots_at(sq):
                            last[r.name] = el["dir"]
        return last
    # each robot looks up the pushers on its square (no scan of the robots for every pusher)
    pushes: dict[str, int] = {}
    for robot in ctx.robots:
        here: list[Element] | None = layer.get(robot.pos) if robot.pos is not None else None
        if not here:
            continue
        ways = {el["dir"] for el in here if phase in el["phases"]}
        if len(ways) == 1:
            pushes[robot.name] = next(iter(ways))  # order-free: the only way
        elif ways:
            ctx.emit(robot, "blocked")
    return pushes


def push_at_once(ctx: TurnContext, pushes: dict[str, int], by: str = "pusher", quiet: bool = False) -> None:
    """Push each robot of ``pushes`` one square toward its direction, all at once (see :func:`push`);
    ``quiet``: log no ``blocked`` (the caller says what was blocked)."""
    by_name = ctx.by_name
    if len(pushes) == 1:  # one robot pushed: no other to meet or wait for
        [(name, d)] = pushes.items()
        robot = by_name[name]
        if robot.pos is not None and try_step(ctx, robot, d, PUSHER, by=by) == BLOCKED and not quiet:
            ctx.emit(robot, "blocked")
        return

    def aim(name: str) -> tuple[int, int]:
        pos = by_name[name].pos
        assert pos is not None
        d = pushes[name]
        return (pos[0] + DR[d], pos[1] + DC[d])

    real = [n for n in pushes if not by_name[n].virtual]
    aims = Counter(aim(n) for n in real)
    stay = {n for n in real if aims[aim(n)] > 1}
    where = {by_name[n].pos: n for n in real}
    stay |= {n for n in real if (other := where.get(aim(n))) is not None and other != n
             and aim(other) == by_name[n].pos}
    for name in () if quiet else [n for n in real if n in stay]:  # in the robots' order, never a set's
        ctx.emit(by_name[name], "blocked")
    pending = [n for n in pushes if n not in stay]
    while pending:
        ready = [n for n in pending if by_name[n].virtual or where.get(aim(n)) not in pending]
        if not ready:  # a ring of pushers: nobody can go first
            for name in pending if not quiet else ():
                ctx.emit(by_name[name], "blocked")
            return
        for name in ready:
            pending.remove(name)
            robot = by_name[name]
            if robot.pos is not None and try_step(ctx, robot, pushes[name], PUSHER, by=by) == BLOCKED and not quiet:
                ctx.emit(robot, "blocked")


PUSHER_KIND = Kind(
    flat=False,
    name="pusher",
    doc='in the listed register phases, pushes a robot on its square one square toward `dir`',
    key='P^o pusher (o=1,3,5 e=2,4)',
    fields=(Field("dir", "dir"), Field("phases", "phases")),
    summary="pushes a robot on its square one square toward dir in the listed register phases",
    steps={"board.pushers": push},
    glyph=lambda e: f"P{ARROWS[e['dir']]}" + ("o" if e["phases"] == (1, 3, 5) else
                                             "e" if e["phases"] == (2, 4) else "*"),
    rank=50,
    legend=lambda e: f"pusher {ARROWS[e['dir']]} phases {','.join(map(str, e['phases']))}",
)

# the pictures: pushing in its phases (:mod:`referee.engine.looks`)
looks.declare("pusher", looks.active_in("phases"))
