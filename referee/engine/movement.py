"""Moving robots: program cards, pushing chains, and the simultaneous conveyor step.

``try_step`` is the single primitive every one-square move goes through (a card's step, a push,
a pusher); it consults walls, the board edge, robots in the way and the hazards of the square
entered, in the order of the timing table's "robots move" sequence.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Card
from .context import TurnContext
from .geometry import DC, DR, Square, dir_name, opposite, square_name
from .state import Robot

BLOCKED, MOVED, GONE = 0, 1, 2

# How a robot came to move, for the log.
CARD, PUSH, PUSHER = "card", "push", "pusher"


def try_step(ctx: TurnContext, robot: Robot, d: int, how: str = CARD, *,
             by: str = "", priority: int | None = None) -> int:
    """Move ``robot`` one square toward ``d``, pushing real robots ahead of it.

    Returns MOVED, BLOCKED (nothing moved; a fence may have cost HP) or GONE (destroyed).
    """
    board = ctx.board
    pos = robot.pos
    assert pos is not None
    if not can_cross(ctx, robot, d):
        return BLOCKED
    target = (pos[0] + DR[d], pos[1] + DC[d])
    if not board.on_board(target):
        if ctx.rules.edge == "fence":
            ctx.fence(robot)
            return BLOCKED
        ctx.destroy(robot, "edge")
        return GONE
    if not robot.virtual:
        other = ctx.real_robot_at(target, exclude=robot)
        if other is not None:
            pushed = try_step(ctx, other, d, PUSH, by=robot.name, priority=priority)
            if pushed == BLOCKED:
                return BLOCKED
    robot.pos = target
    if how == CARD:
        ctx.note_move(robot)
    elif priority is not None:
        ctx.emit(robot, f"pushed to {square_name(target)}", by=by, priority=priority)
    else:
        ctx.emit(robot, f"pushed to {square_name(target)}", by=by)
    return enter(ctx, robot, pos, d)


def can_cross(ctx: TurnContext, robot: Robot, d: int) -> bool:
    """Whether the side of the robot's square toward ``d`` lets it through (walls, ledges...)."""
    pos = robot.pos
    assert pos is not None
    key = (pos[0], pos[1], d)
    board = ctx.board
    if key in board.blocked:
        return False
    for step_id in CROSS_STEPS:
        table = board.hooks.get(step_id)
        if table:
            for fn in table.get(key, ()):
                if not fn(ctx, robot, d):
                    return False
    return True


def enter(ctx: TurnContext, robot: Robot, came_from: Square, d: int) -> int:
    """Apply what the square just entered does to a robot (pits, ledges...)."""
    board = ctx.board
    for step_id in ENTER_STEPS:
        table = board.hooks.get(step_id)
        if table:
            key = robot.pos
            for fn in table.get(key, ()):
                fn(ctx, robot, came_from, d)
                if robot.pos is None:
                    return GONE
    return MOVED


#: steps of the "robots move" sequence that may forbid crossing a side; their hooks are keyed by
#: (row, col, side), while the hooks a step runs on entering a square are keyed by (row, col)
CROSS_STEPS: tuple[str, ...] = ("move.walls", "move.ledges")
#: steps of the "robots move" sequence that act on the square a robot enters, in timing order
ENTER_STEPS: tuple[str, ...] = ("move.ledges", "move.pits")
#: steps that act on a movement card executed from a square, in timing order
CARD_STEPS: tuple[str, ...] = ("move.teleporters", "move.water")


@dataclass(slots=True)
class MovePlan:
    """How a movement card will play out; card hooks (water, teleporters) may change it."""

    squares: int
    direction: int
    start: Square
    done: bool = False


def execute_card(ctx: TurnContext, robot: Robot, card: Card) -> None:
    ctype = card.type
    if ctype.turn:
        robot.facing = (robot.facing + ctype.turn) % 4
        ctx.emit(robot, f"face {dir_name(robot.facing)}", card=str(card))
        return
    assert robot.pos is not None
    plan = MovePlan(abs(ctype.move), robot.facing if ctype.move > 0 else opposite(robot.facing), robot.pos)
    board = ctx.board
    for step_id in CARD_STEPS:
        table = board.hooks.get(step_id)
        if table and robot.pos in table:
            for fn in table[robot.pos]:
                fn(ctx, robot, card, plan)
    if plan.done:
        ctx.flush_moves()
        return
    for _ in range(plan.squares):
        result = try_step(ctx, robot, plan.direction, CARD, priority=card.priority)
        if result == GONE:
            return
        if result == BLOCKED:
            ctx.emit(robot, "obstruction encountered", card=str(card))
            break
    after = board.hooks.get("move.ramp_slide")
    if after and robot.pos in after:
        for fn in after[robot.pos]:
            fn(ctx, robot, card, plan)
    ctx.flush_moves()


def convey(ctx: TurnContext, moves: list[tuple[Robot, int]], lanes: dict[Square, int],
           turns: bool, verb: str) -> None:
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
    for robot, d in moves:
        pos = robot.pos
        if pos is None or not can_cross(ctx, robot, d):
            continue
        target = (pos[0] + DR[d], pos[1] + DC[d])
        if not board.on_board(target) and ctx.rules.edge == "fence":
            ctx.fence(robot)
            continue
        plan[robot.name] = target
        dirs[robot.name] = d
    _settle(ctx, plan, dirs, lanes)
    moved = [(by_name[name], by_name[name].pos, target) for name, target in plan.items()]
    for robot, _, target in moved:
        robot.pos = target
    for robot, start, target in moved:
        d = dirs[robot.name]
        if not board.on_board(target):
            robot.pos = start
            ctx.destroy(robot, "edge")
            continue
        ctx.emit(robot, f"{verb} {square_name(target)}")
        if turns:
            lane = lanes.get(target)
            if lane is not None and lane != d and lane != opposite(d):
                robot.facing = (robot.facing + (1 if lane == (d + 1) % 4 else 3)) % 4
                ctx.emit(robot, f"face {dir_name(robot.facing)}")
        assert start is not None
        enter(ctx, robot, start, d)


def _settle(ctx: TurnContext, plan: dict[str, Square], dirs: dict[str, int], lanes: dict[Square, int]) -> None:
    """Cancel the conveyor moves that conflict, until what is left can all happen together."""
    by_name = ctx.by_name
    board = ctx.board
    changed = True
    while changed:
        changed = False
        real = [n for n in plan if not by_name[n].virtual]
        into: dict[Square, list[str]] = {}
        for n in real:
            into.setdefault(plan[n], []).append(n)
        for target, names in into.items():
            if len(names) > 1 and board.on_board(target):
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
            occupant = ctx.real_robot_at(plan[n], exclude=by_name[n])
            if occupant is None:
                continue
            other = occupant.name
            if other not in plan:
                del plan[n]
                changed = True
            elif plan[other] == by_name[n].pos:
                del plan[n], plan[other]
                changed = True
