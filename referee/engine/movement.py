"""Moving robots: program cards, pushing chains, and the simultaneous conveyor step.

``try_step`` is the single primitive every one-square move goes through (a card's step, a push,
a pusher); it consults walls and the cross hooks of the side left, the board edge, robots in the
way and the enter hooks of the square entered. ``execute_card`` runs a card through the card,
rotate and stop hooks. Every hook list comes from the board's dispatch tables, built from the
timing table's "robots move" sequence, merged with the robot's own effects.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from . import shown
from .board import Board
from .cards import Card
from .context import TurnContext
from .geometry import DC, DIR_NAMES, DR, Square, dir_name, opposite
from .hooks import EFFECTS, Handler
from .state import FLYING, Robot
from .timing import CARD as CARD_HOOK
from .timing import CROSS, ENTER, ORDER, ROTATE, STOP

# what moved a robot, as the report and the story tell it (engine/shown.py)
shown.mover("move", "", "by its cards")
shown.mover("pushed", "", "pushed by {by}")
shown.mover("slide", "", "slid")
shown.mover("carried", "", "carried")

shown.cause("edge", "off the edge", into="off the edge")
shown.untold("blocked", "the move it did make is told; the stage tables say what stopped it")
shown.untold("face", "the Now line says where it faces")

BLOCKED, MOVED, GONE = 0, 1, 2

# How a robot came to move, for the log.
CARD, PUSH, PUSHER, SLIDE = "card", "push", "pusher", "slide"


def try_step(ctx: TurnContext, robot: Robot, d: int, how: str = CARD, *,
             by: str = "", priority: int | None = None, push: bool = True) -> int:
    """Move ``robot`` one square toward ``d``, pushing real robots ahead of it (unless not ``push``:
    then a real robot in the way blocks).

    Returns MOVED, BLOCKED (nothing moved; a fence may have cost HP) or GONE (destroyed). The log
    says ``move to`` once per card (CARD), ``pushed to`` (PUSH, PUSHER) or ``slide to`` (SLIDE). A step
    that is not a card's is a one-square :class:`Move` of cause ``how`` while its hooks run.
    """
    if how == CARD:
        return _try_step(ctx, robot, d, how, by, priority, push)
    assert robot.pos is not None
    with _moving(ctx, robot, Move(1, d, robot.pos, cause=how)):
        return _try_step(ctx, robot, d, how, by, priority, push)


def _try_step(ctx: TurnContext, robot: Robot, d: int, how: str, by: str, priority: int | None, push: bool) -> int:
    # (the hot path of every move: ``can_cross``, ``real_robot_at``, ``note_move`` and ``enter`` written out)
    board = ctx.board
    pos = robot.pos
    assert pos is not None
    key = (pos[0], pos[1], d)
    fns = hooks_at(ctx, robot, CROSS, key) if robot.options or robot.statuses else ctx.hooks[CROSS].get(key)
    if fns:  # before the wall test: a side's hooks see a robot run against its wall (spiky walls)
        for fn in fns:
            if not fn(ctx, robot, d):
                return BLOCKED
    if key in board.blocked:
        return BLOCKED
    target = (pos[0] + DR[d], pos[1] + DC[d])
    if target not in board.squares:
        if ctx.rules.edge == "fence":
            ctx.fence(robot)
            return BLOCKED
        ctx.destroy(robot, "edge")
        return GONE
    if not robot.virtual:
        for other in ctx.robots:
            if other.pos == target and not other.virtual and other is not robot:
                if not push:
                    return BLOCKED
                pushed = try_step(ctx, other, d, PUSH, by=robot.name, priority=priority)
                if pushed == BLOCKED:
                    return BLOCKED
                break
    robot.pos = target
    if how == CARD:
        if ctx.record:
            ctx.pending_moves[robot.name] = target
    elif how == SLIDE:
        ctx.emit_unmade(robot, "slide", target)
    elif priority is not None:
        ctx.emit_unmade(robot, "pushed", target, by=by, priority=priority)
    else:
        ctx.emit_unmade(robot, "pushed", target, by=by)
    fns = hooks_at(ctx, robot, ENTER, target) if robot.options or robot.statuses else ctx.hooks[ENTER].get(target)
    if fns:
        for fn in fns:
            fn(ctx, robot, pos, d)
            if robot.pos is None:
                return GONE
    return MOVED


def can_cross(ctx: TurnContext, robot: Robot, d: int) -> bool:
    """Whether the side of the robot's square toward ``d`` lets it through (walls, ledges...)."""
    pos = robot.pos
    assert pos is not None
    key = (pos[0], pos[1], d)
    fns = hooks_at(ctx, robot, CROSS, key) if robot.options or robot.statuses else ctx.hooks[CROSS].get(key)
    if fns:  # before the wall test: a side's hooks see a robot run against its wall (spiky walls)
        for fn in fns:
            if not fn(ctx, robot, d):
                return False
    return key not in ctx.board.blocked


def enter(ctx: TurnContext, robot: Robot, came_from: Square, d: int) -> int:
    """Apply what the square just entered does to a robot (pits, ledges...): its enter hooks."""
    key = robot.pos
    fns = hooks_at(ctx, robot, ENTER, key) if robot.options or robot.statuses else ctx.hooks[ENTER].get(key)
    if fns:
        for fn in fns:
            fn(ctx, robot, came_from, d)
            if robot.pos is None:
                return GONE
    return MOVED


def hooks_at(ctx: TurnContext, robot: Robot, type_: str, key: Any) -> Sequence[Handler] | None:
    """The ``type_`` hooks that act on ``robot`` at ``key`` (a square, or a side for cross hooks)."""
    if (robot.options or robot.statuses) and (FLYING in robot.statuses or effect_hooks(robot, type_)):
        return handlers(ctx, robot, type_, key)
    return ctx.hooks[type_].get(key)


#: (hook type, effects registered, options..., "|", statuses...) -> the hooks the robot's effects add, as
#: (table order, 1, handler)
_EFFECT_HOOKS: dict[tuple[Any, ...], list[tuple[int, int, Handler]]] = {}


def effect_hooks(robot: Robot, type_: str) -> list[tuple[int, int, Handler]]:
    """The ``type_`` hooks of what the robot carries (options, statuses), in table order (cached)."""
    key = (type_, len(EFFECTS), *robot.options, "|", *robot.statuses)
    found = _EFFECT_HOOKS.get(key)
    if found is None:
        found = []
        for name in robot.effects():
            effect = EFFECTS.get(name)
            if effect is not None:
                found.extend((ORDER[h.step], 1, h.fn) for h in effect.by_type.get(type_, ()))
        found.sort(key=lambda item: (item[0], item[1]))
        if len(_EFFECT_HOOKS) > 4096:  # many different hands of options: start again
            _EFFECT_HOOKS.clear()
        _EFFECT_HOOKS[key] = found
    return found


def handlers(ctx: TurnContext, robot: Robot, type_: str, key: Any) -> list[Handler]:
    """The ``type_`` handlers for ``robot`` at ``key``, in table order: in each step the board's
    elements first, then the robot's own effects (options, statuses). Floor elements do not reach a flying
    robot."""
    found = [(order, 0, fn) for order, fn in ctx.board.ordered(type_).get(key, ())]
    if FLYING in robot.statuses:
        floor = ctx.board.floor_handlers()
        found = [item for item in found if item[2] not in floor]
    extra = effect_hooks(robot, type_)
    if not found:
        return [fn for _, _, fn in extra]
    found.extend(extra)
    found.sort(key=lambda item: (item[0], item[1]))
    return [fn for _, _, fn in found]


@dataclass(slots=True)
class Move:
    """A robot's move under way: how a card will play out (card hooks, water, teleporters, soap..., may change
    it), or one square of a push, a pusher, a slide or a conveyor.

    ``squares`` and ``direction`` describe a movement card, ``turn`` (quarter turns clockwise) a
    turn card. ``done`` means a hook has played the card out: nothing more happens for it (no stop
    hooks). :meth:`stop` ends a move where the robot stands (a tar pit, say): no more squares, and a
    card's stop hooks still run there. Card and stop hooks are given the move; any hook finds the move
    of the robot it acts on with :func:`move_of`.
    """

    squares: int
    direction: int
    start: Square
    done: bool = False
    turn: int = 0
    #: squares of movement the card has used so far (a rebound off a padded wall counts as one); an enter hook
    #: sees the squares before the one entered
    moved: int = 0
    #: why the robot moves: ``card`` (its own card), ``push``, ``pusher``, ``slide``, or a conveyor's event kind
    #: (``conveyed``, ``carried``...)
    cause: str = CARD
    #: the card played, for a card's move
    card: Card | None = None
    #: set by :meth:`stop`: the move goes no further
    stopped: bool = False

    def stop(self) -> None:
        """End the move on the square the robot stands on (its card's stop hooks still run there)."""
        self.stopped = True

    @property
    def path(self) -> list[Square]:
        """The squares the move plans to cross from its start, in order (as its hooks have left the plan)."""
        r, c = self.start
        return [(r + DR[self.direction] * i, c + DC[self.direction] * i) for i in range(1, self.squares + 1)]


#: the name element modules of the first hook API use; the same class
MovePlan = Move


def move_of(ctx: TurnContext, robot: Robot) -> Move | None:
    """The move ``robot`` is making now: its card's, or the one square a push, pusher, slide or conveyor moves it.
    None when the board moves it some other way (teleports, jacks, magnets...) or it is not moving."""
    return ctx.moving.get(robot.name)


#: ``ctx.phase_notes`` key: what moves with the robots in this phase besides them (ghosts), see ``add_mover``
MOVERS = "movers"


#: ``ctx.phase_notes`` key: robot -> the robot whose card it plays this phase (Radio Control): it moves right
#: after that robot, whatever their seats
FOLLOWS = "follows"


def add_mover(ctx: TurnContext, priority: int, move: Callable[[TurnContext], None]) -> None:
    """Have ``move(ctx)`` run among this phase's robot cards at ``priority`` (called while the phase's
    cards are revealed): something that is not a robot but moves in card order, as ghosts do."""
    ctx.phase_notes.setdefault(MOVERS, []).append((priority, move))


def run_movers(ctx: TurnContext, above: int) -> None:
    """Run the movers added for this phase whose priority is above ``above``, highest first."""
    movers: list[tuple[int, Callable[[TurnContext], None]]] | None = ctx.phase_notes.get(MOVERS)
    if not movers:
        return
    movers.sort(key=lambda m: m[0], reverse=True)
    while movers and movers[0][0] > above:
        movers.pop(0)[1](ctx)


#: ``ctx.notes`` key: what runs once the phase's robots have all moved (see ``after_moves``)
AFTER_MOVES = "after moves"


def after_moves(ctx: TurnContext, key: str, run: Callable[[TurnContext], None]) -> None:
    """Have ``run(ctx)`` run once (per ``key``) when this phase's robots and movers have all moved, before the
    board elements: what the texts put "after the Robots Move segment" (repeaters). What it makes happen
    may ask for another run; they go on until none is asked for."""
    ctx.notes.setdefault(AFTER_MOVES, {})[key] = run


def run_after_moves(ctx: TurnContext) -> None:
    """Run what :func:`after_moves` asked for, again while a run asks for more."""
    while (pending := ctx.notes.pop(AFTER_MOVES, None)):
        for run in pending.values():
            run(ctx)


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


#: ``ctx.notes`` key: the card being executed now (:class:`CardMove`)
CARD_MOVE = "card move"


@dataclass(slots=True)
class CardMove:
    """A robot executing a card, for the hooks that must know a move is the robot's own: whose card it is,
    whether its squares of movement are under way (more may follow), and what hooks marked on the way
    (deep water's 1 HP comes once a card)."""

    robot: str
    stepping: bool = False
    marks: set[str] = field(default_factory=set)
    #: what hooks asked to run once the card's squares of movement are over (a robot it pushed ends its move)
    after_squares: list[Callable[[TurnContext], None]] = field(default_factory=list)


#: ``ctx.notes`` key: the robots a multi-square push (hydraulic pushers) is moving now, see :func:`passing`
PUSHING = "pushing"


def passing(ctx: TurnContext, robot: Robot) -> bool:
    """Whether ``robot`` is in the middle of a move that may go on (its card's squares, a hydraulic push):
    a square it enters now is passed over, not where it ends its move."""
    move: CardMove | None = ctx.notes.get(CARD_MOVE)
    if move is not None and move.robot == robot.name and move.stepping:
        return True
    return robot.name in ctx.notes.get(PUSHING, ())


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


def card_move(ctx: TurnContext, robot: Robot) -> CardMove | None:
    """The card ``robot`` is executing right now, if a move it makes is its own card's (not a push, a belt...)."""
    move: CardMove | None = ctx.notes.get(CARD_MOVE)
    return move if move is not None and move.robot == robot.name else None


#: kinds whose hooks ask :func:`card_move` or :func:`passing`: the record of the card being executed is
#: kept only on boards holding one of them (``track_card_moves``), so other boards pay nothing for it
CARD_MOVE_KINDS: set[str] = set()


def track_card_moves(kind: str) -> None:
    """Keep the :class:`CardMove` record on boards holding ``kind`` (its hooks ask who is moving how)."""
    CARD_MOVE_KINDS.add(kind)


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
                robot.facing = (robot.facing + turn) % 4
                ctx.emit_card(robot, "face", {"dir": DIR_NAMES[robot.facing]}, card)
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
        result = _try_step(ctx, robot, plan.direction, CARD, "", priority, True)
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
    d = robot.facing if ctype.move >= 0 else opposite(robot.facing)
    squares = abs(ctype.move)
    board = ctx.board
    hooks = ctx.hooks
    cross, entered = hooks[CROSS], hooks[ENTER]
    pending = ctx.pending_moves if ctx.record else None
    dr, dc = DR[d], DC[d]
    moved = 0
    walled = False
    taken: list[Square | None] | None = None
    while moved < squares:
        pos = robot.pos
        assert pos is not None
        key = (pos[0], pos[1], d)
        if key in cross:
            break
        if key in board.blocked:
            ctx.emit_card(robot, "blocked", None, card)
            walled = True
            break
        target = (pos[0] + dr, pos[1] + dc)
        if target not in board.squares or target in entered:
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


class _moving:
    """Make ``move`` the robot's move while the block runs (a move within a move: the outer one after it)."""

    __slots__ = ("move", "moving", "name", "outer")

    def __init__(self, ctx: TurnContext, robot: Robot, move: Move) -> None:
        self.moving, self.name, self.move = ctx.moving, robot.name, move

    def __enter__(self) -> None:
        self.outer = self.moving.get(self.name)
        self.moving[self.name] = self.move

    def __exit__(self, *exc: object) -> None:
        if self.outer is None:
            del self.moving[self.name]
        else:
            self.moving[self.name] = self.outer


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
        with _moving(ctx, robot, Move(1, d, start, cause=kind, moved=1)):
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
