"""Playing a program card: its card hooks, then the turn (and rotate hooks) or its squares of movement (cross
and enter hooks on each, :func:`.movement.try_step`), then the stop hooks where it ended (:func:`execute_card`)."""

from __future__ import annotations

from typing import Any

from .board import Board
from .cards import Card
from .context import TurnContext
from .geometry import DC, DIR_NAMES, DR, Square, dir_name, opposite
from .movement import (
    BLOCKED,
    CARD,
    CARD_MOVE,
    CARD_MOVE_KINDS,
    GONE,
    MOVED,
    CardMove,
    Move,
    MovePlan,
    hooks_at,
    step_as,
    try_step,
)
from .state import Robot
from .timing import CARD as CARD_HOOK
from .timing import CROSS, ENTER, ROTATE, STOP

#: ``Board.cache`` key of :func:`plain_steps`
PLAIN_STEPS = "plain steps"


def _rebound_note(robot: Robot) -> str:
    return f"rebound {robot.name}"


def turn_back(ctx: TurnContext, robot: Robot, d: int) -> None:
    """Called by a cross hook that blocks the side toward ``d``: the robot's own move (a card's step,
    a padded bounce) goes into the side and back, counting as one square, and the rest of it goes the
    opposite way. Pushes, belts and other moves see only the block."""
    ctx.notes[_rebound_note(robot)] = (robot.pos, d)


def card_step(ctx: TurnContext, robot: Robot, plan: MovePlan, priority: int) -> int:
    """One square of a robot's own move toward ``plan.direction``: ``try_step``, except that a side
    that turns the robot back (``turn_back``) reverses ``plan.direction`` and counts as a square moved
    (the result is then MOVED, the robot where it was)."""
    result = try_step(ctx, robot, plan.direction, CARD, priority=priority)
    if result == BLOCKED and ctx.notes.pop(_rebound_note(robot), None) == (robot.pos, plan.direction):
        plan.direction = opposite(plan.direction)
        result = MOVED
    if result == MOVED:
        plan.moved += 1
    return result


def _tracks(ctx: TurnContext) -> bool:
    board = ctx.board
    found: bool | None = board.cache.get(CARD_MOVE)
    if found is None:
        found = board.cache[CARD_MOVE] = any(board.layer(kind) for kind in CARD_MOVE_KINDS)
    return found


def execute_card(ctx: TurnContext, robot: Robot, card: Card) -> None:
    """Play one card: its card hooks, then the turn (and rotate hooks) or the squares of movement
    (cross and enter hooks on each), then, for a movement card, the stop hooks where it ended. The
    card's :class:`Move` is the robot's move (:func:`move_of`) meanwhile; on boards that ask
    (:func:`track_card_moves`) a :class:`CardMove` record says which robot a card is moving."""
    tracks = ctx.board.cache.get(CARD_MOVE)
    if not (_tracks(ctx) if tracks is None else tracks):
        # ``_execute``'s ways for a robot carrying nothing where no card hook acts, written out
        pos = robot.pos
        if not (robot.options or robot.statuses) and pos not in ctx.hooks[CARD_HOOK]:
            turn = card.type.turn
            if not turn:
                if not ctx.notes or _rebound_note(robot) not in ctx.notes:
                    _walk(ctx, robot, card)
                    return
            elif pos not in ctx.hooks[ROTATE]:
                robot.facing = facing = (robot.facing + turn) % 4
                if ctx.record:   # ``ctx.emit_card(robot, "face", {"dir": ...}, card)``, written out
                    if robot.name in ctx.pending_moves:
                        ctx.flush_move(robot)
                    ctx.events.append((ctx.phase, ctx.step, robot.name, "face", {"dir": DIR_NAMES[facing]}, card))
                return
        _execute(ctx, robot, card, None)
        return
    notes = ctx.notes
    outer = notes.get(CARD_MOVE)
    notes[CARD_MOVE] = move = CardMove(robot.name)
    try:
        _execute(ctx, robot, card, move)
    finally:
        if outer is None:
            del notes[CARD_MOVE]
        else:
            notes[CARD_MOVE] = outer


def _execute(ctx: TurnContext, robot: Robot, card: Card, move: CardMove | None) -> None:
    ctype = card.type
    pos = robot.pos
    assert pos is not None
    carrying = robot.options or robot.statuses
    hooks = ctx.hooks
    if not carrying and move is None and pos not in hooks[CARD_HOOK]:
        if not ctype.turn:
            if not ctx.notes or _rebound_note(robot) not in ctx.notes:
                _walk(ctx, robot, card)
                return
        elif pos not in hooks[ROTATE]:
            # nothing acts on a turn card here: the robot turns (what ``rotate`` does when no hook is there)
            robot.facing = (robot.facing + ctype.turn) % 4
            ctx.emit_card(robot, "face", {"dir": DIR_NAMES[robot.facing]}, card)
            return
    plan = Move(abs(ctype.move), robot.facing if ctype.move >= 0 else opposite(robot.facing), pos,
                turn=ctype.turn, card=card)
    moving = ctx.moving
    outer = moving.get(robot.name)  # a card played within a card (energizers): its own move, then the outer one
    moving[robot.name] = plan
    try:
        fns = hooks_at(ctx, robot, CARD_HOOK, pos) if carrying else hooks[CARD_HOOK].get(pos)
        if fns:
            for fn in fns:
                fn(ctx, robot, card, plan)
                if plan.done or robot.pos is None:
                    ctx.flush_moves()
                    return
        if ctype.turn:
            rotate(ctx, robot, plan.turn, card)
            return
        _steps(ctx, robot, card, plan, move, plan.squares, carrying)
    finally:
        if outer is None:
            del moving[robot.name]
        else:
            moving[robot.name] = outer


def _steps(ctx: TurnContext, robot: Robot, card: Card, plan: Move, move: CardMove | None, left: int,
           carrying: object) -> None:
    """A movement card's squares of movement (``left`` of them still to go), then its stop hooks where the robot
    ended; ``plan`` is the robot's move meanwhile."""
    if move is not None:
        move.stepping = True
    priority = card.priority
    for _ in range(left):
        if plan.stopped:
            break
        # ``card_step``, written out
        result = step_as(ctx, robot, plan.direction, CARD, "", priority, True)
        if result == BLOCKED and ctx.notes.pop(_rebound_note(robot), None) == (robot.pos, plan.direction):
            plan.direction = opposite(plan.direction)
            result = MOVED
        if result == MOVED:
            plan.moved += 1
        if result == GONE:
            return
        if result == BLOCKED:
            ctx.emit_card(robot, "blocked", None, card)
            break
    if move is not None:
        move.stepping = False
        while move.after_squares:
            move.after_squares.pop(0)(ctx)
    stop = robot.pos
    fns = hooks_at(ctx, robot, STOP, stop) if carrying else ctx.hooks[STOP].get(stop)
    if fns:
        for fn in fns:
            fn(ctx, robot, card, plan)
            if robot.pos is None:
                break
    ctx.flush_moves()


def _walk(ctx: TurnContext, robot: Robot, card: Card) -> None:
    """A movement card of a robot carrying nothing, from a square no card hook acts on: its squares are stepped
    here while nothing can see its move. At the first square where something can (a hook on the side crossed or
    the square entered, a robot to push, the edge) or a stop hook where it ends, the card goes on as a
    :class:`Move` the robot is making (:func:`_steps`), as if it had been one from the start."""
    ctype = card.type
    start = robot.pos
    assert start is not None
    d = robot.facing if ctype.move >= 0 else (robot.facing + 2) % 4
    squares = abs(ctype.move)
    board = ctx.board
    hooks = ctx.hooks
    found = board.cache.get(PLAIN_STEPS)   # ``plain_steps(board, hooks)``, written out
    plain = (found[1] if found is not None and found[0] is hooks else plain_steps(board, hooks))[d]
    pending = ctx.pending_moves if ctx.record else None
    moved = 0
    walled = False
    taken: list[Square | None] | None = None
    while moved < squares:
        pos = robot.pos
        assert pos is not None
        if pos in plain:
            target = plain[pos]
        else:   # not looked at yet
            target = plain[pos] = _plain_step(board, hooks, pos, d)
        if target is None:
            if (pos[0], pos[1], d) in board.blocked and (pos[0], pos[1], d) not in hooks[CROSS]:
                ctx.emit_card(robot, "blocked", None, card)
                walled = True
            break
        if not robot.virtual:
            if taken is None:  # where the robots stand (its own square as it started: it is never the target)
                taken = [o.pos for o in ctx.robots]
            if target in taken:
                for other in ctx.robots:
                    if other.pos == target and not other.virtual and other is not robot:
                        break
                else:
                    other = None
                if other is not None:
                    break
        robot.pos = target
        if pending is not None:
            pending[robot.name] = target
        moved += 1
    left = 0 if walled else squares - moved
    if not left and robot.pos not in hooks[STOP]:
        if ctx.pending_moves:
            ctx.flush_moves()
        return
    plan = Move(squares, d, start, card=card, moved=moved)
    moving = ctx.moving
    outer = moving.get(robot.name)
    moving[robot.name] = plan
    try:
        _steps(ctx, robot, card, plan, None, left, False)
    finally:
        if outer is None:
            del moving[robot.name]
        else:
            moving[robot.name] = outer


def plain_steps(board: Board, hooks: dict[str, dict[Any, Any]]) -> tuple[dict[Square, Square | None], ...]:
    """Per direction, square -> the square a step from it reaches when nothing can see the step (no hook on the
    side crossed or the square entered, no wall, not off the edge), else False: filled as :func:`_walk` asks, once
    per board (for its move hooks ``hooks``)."""
    found = board.cache.get(PLAIN_STEPS)
    if found is None or found[0] is not hooks:
        found = board.cache[PLAIN_STEPS] = (hooks, ({}, {}, {}, {}))
    steps: tuple[dict[Square, Square | None], ...] = found[1]
    return steps


def _plain_step(board: Board, hooks: dict[str, dict[Any, Any]], pos: Square, d: int) -> Square | None:
    key = (pos[0], pos[1], d)
    if key in hooks[CROSS] or key in board.blocked:
        return None
    target = (pos[0] + DR[d], pos[1] + DC[d])
    return target if target in board.squares and target not in hooks[ENTER] else None


def rotate(ctx: TurnContext, robot: Robot, quarter_turns: int, card: Card) -> None:
    """A turn card turns a robot on its square, then the rotate hooks of the square run."""
    robot.facing = (robot.facing + quarter_turns) % 4
    ctx.emit_card(robot, "face", {"dir": dir_name(robot.facing)}, card)
    pos = robot.pos
    fns = hooks_at(ctx, robot, ROTATE, pos)
    if fns:
        for fn in fns:
            fn(ctx, robot, card)
            if robot.pos is None:
                break
