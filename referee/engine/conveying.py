"""Robots the board moves: conveyor belts carrying them all at once (:func:`convey`), and what the floor does to
robots a pusher pushed onto it (:func:`pushed_onto`)."""

from __future__ import annotations

from collections.abc import Callable

from .board import Board
from .context import TurnContext
from .geometry import DC, DIR_NAMES, DR, Square
from .movement import Move, can_cross, enter, moving_as
from .state import FLYING, Robot
from .timing import CROSS, ENTER

#: floor kind -> what it does to the robots a pusher has pushed onto it, all at once: ``(ctx, [(robot, d)])``
PUSHED_ONTO: dict[str, Callable[[TurnContext, list[tuple[Robot, int]]], None]] = {}


def register_pushed_onto(kind: str, fn: Callable[[TurnContext, list[tuple[Robot, int]]], None]) -> None:
    """``fn`` acts on robots pushers push onto ``kind`` (timing text, board elements 12: "robots who got pushed
    in craters/tilted ground, oil slicks, giant trapdoors get affected by them (again!)")."""
    PUSHED_ONTO[kind] = fn


def positions(ctx: TurnContext) -> dict[str, Square | None]:
    """Where every robot stands (to tell afterwards who a step moved, see :func:`pushed_onto`)."""
    return {r.name: r.pos for r in ctx.robots}


def meets_pushed(board: Board) -> bool:
    """Whether the board has a kind of :data:`PUSHED_ONTO` (something :func:`pushed_onto` may do), built once."""
    found: bool | None = board.cache.get("pushed onto")
    if found is None:
        found = board.cache["pushed onto"] = any(board.layer(kind) for kind in PUSHED_ONTO)
    return found


def pushed_onto(ctx: TurnContext, before: dict[str, Square | None]) -> None:
    """The robots a pusher step moved (``before``: :func:`positions` before it) meet what they were pushed
    onto: each kind of :data:`PUSHED_ONTO` acts on all of its robots at once, kinds in the order they
    registered. Nothing happens under the house rule ``pushed_not_affected``."""
    if ctx.rules.pushed_not_affected or not PUSHED_ONTO:
        return
    moved: list[tuple[Robot, int]] = []
    for robot in ctx.robots:
        start, pos = before.get(robot.name), robot.pos
        if start is None or pos is None or start == pos:
            continue
        if start[0] == pos[0]:
            moved.append((robot, 1 if pos[1] > start[1] else 3))
        elif start[1] == pos[1]:
            moved.append((robot, 0 if pos[0] > start[0] else 2))
    if not moved:
        return
    for kind, fn in PUSHED_ONTO.items():
        layer = ctx.board.layer(kind)
        if layer:
            mine = [(robot, d) for robot, d in moved if robot.pos in layer and FLYING not in robot.statuses]
            if mine:
                fn(ctx, mine)


def convey(ctx: TurnContext, moves: list[tuple[Robot, int]], lanes: dict[Square, int],
           turns: bool, kind: str) -> None:
    """Move robots one square each, all at once, as belts and currents do.

    ``lanes`` maps each square of this kind of conveyor to its direction; it settles conflicts
    (of two robots carried into one square, only one moving along the lane there goes) and, when
    ``turns`` is set, turns robots carried onto a lane at 90 degrees. A conveyor never pushes:
    a robot carried into a real robot that stays put stays put too, and two robots carried
    head-on into each other's square both stay. Virtual robots ignore other robots.
    """
    board = ctx.board
    plan: dict[str, Square] = {}
    dirs: dict[str, int] = {}
    by_name = ctx.by_name
    cross, walls, squares = ctx.hooks[CROSS], board.blocked, board.squares
    for robot, d in moves:
        pos = robot.pos
        if pos is None:
            continue
        key = (pos[0], pos[1], d)
        if robot.options or robot.statuses or key in cross:
            if not can_cross(ctx, robot, d):
                continue
        elif key in walls:  # what ``can_cross`` says where no hook acts
            continue
        target = (pos[0] + DR[d], pos[1] + DC[d])
        if target not in squares and ctx.rules.edge == "fence":
            ctx.fence(robot)
            continue
        plan[robot.name] = target
        dirs[robot.name] = d
    if not plan:
        return
    _settle(ctx, plan, dirs, lanes)
    moved = [(by_name[name], by_name[name].pos, target) for name, target in plan.items()]
    for robot, _, target in moved:
        robot.pos = target
    entered = ctx.hooks[ENTER]
    events = ctx.events if ctx.record else None
    pending = ctx.pending_moves
    phase, step = ctx.phase, ctx.step
    for robot, start, target in moved:
        d = dirs[robot.name]
        if target not in squares:
            robot.pos = start
            ctx.destroy(robot, "edge")
            continue
        if events is not None:  # ``ctx.emit_unmade(robot, kind, target)``, written out
            if robot.name in pending:
                ctx.flush_move(robot)
            events.append((phase, step, robot.name, kind, target, None))
        if turns:
            lane = lanes.get(target)
            if lane is not None and (lane - d) & 1:  # a lane at 90 degrees to the way it came
                quarter_turns = 1 if lane == (d + 1) % 4 else 3
                if robot.options:  # an option may keep it steady
                    ctx.turn(robot, quarter_turns)
                else:  # what ``ctx.turn`` does then
                    robot.facing = (robot.facing + quarter_turns) % 4
                    ctx.emit(robot, "face", {"dir": DIR_NAMES[robot.facing]})
        assert start is not None
        if not (robot.options or robot.statuses) and robot.pos not in entered:
            continue  # nothing acts on it where it came: no move to make known
        with moving_as(ctx, robot, Move(1, d, start, cause=kind, moved=1)):
            enter(ctx, robot, start, d)


def _settle(ctx: TurnContext, plan: dict[str, Square], dirs: dict[str, int], lanes: dict[Square, int]) -> None:
    """Cancel the conveyor moves that conflict, until what is left can all happen together."""
    by_name = ctx.by_name
    board = ctx.board
    if len(plan) == 1:  # one robot carried: it stays only if a real robot stands where it would go
        [(name, target)] = plan.items()
        robot = by_name[name]
        if not robot.virtual and ctx.real_robot_at(target, exclude=robot) is not None:
            del plan[name]
        return
    # the real robots by square (nobody moves while the moves are settled), in the robots' order
    real_at: dict[Square, list[Robot]] = {}
    for r in ctx.robots:
        if r.pos is not None and not r.virtual:
            found = real_at.get(r.pos)
            if found is None:
                real_at[r.pos] = [r]
            else:
                found.append(r)
    # most often no two real robots are carried into one square and none into a real robot: nothing to settle
    aims: set[Square] = set()
    for n, target in plan.items():
        if by_name[n].virtual:
            continue
        if target in real_at or target in aims:
            break
        aims.add(target)
    else:
        return
    changed = True
    while changed:
        changed = False
        real = [n for n in plan if not by_name[n].virtual]
        into: dict[Square, list[str]] = {}
        for n in real:
            into.setdefault(plan[n], []).append(n)
        for target, names in into.items():
            if len(names) > 1 and target in board.squares:
                lane = lanes.get(target)
                along = [n for n in names if lane is not None and dirs[n] == lane]
                keep = along[0] if len(along) == 1 else None
                for n in names:
                    if n != keep:
                        del plan[n]
                        changed = True
        for n in [n for n in plan if not by_name[n].virtual]:
            if n not in plan:
                continue
            me = by_name[n]
            for occupant in real_at.get(plan[n], ()):  # ``ctx.real_robot_at(plan[n], exclude=me)``
                if occupant is not me:
                    break
            else:
                continue
            other = occupant.name
            if other not in plan:
                del plan[n]
                changed = True
            elif plan[other] == by_name[n].pos:
                del plan[n], plan[other]
                changed = True
