"""Moving robots one square at a time, and what a move is while it is made.

``try_step`` is the single primitive every one-square move goes through (a card's step, a push,
a pusher); it consults walls and the cross hooks of the side left, the board edge, robots in the
way and the enter hooks of the square entered. Every hook list comes from the board's dispatch tables,
built from the timing table's "robots move" sequence, merged with the robot's own effects. Cards are
played in :mod:`.card_moves` (``execute_card``), belts convey in :mod:`.conveying`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from . import shown
from .cards import Card
from .context import TurnContext
from .geometry import DC, DR, Square
from .hooks import EFFECTS, Handler
from .state import FLYING, Robot
from .timing import CROSS, ENTER, ORDER

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
        return step_as(ctx, robot, d, how, by, priority, push)
    assert robot.pos is not None
    with moving_as(ctx, robot, Move(1, d, robot.pos, cause=how)):
        return step_as(ctx, robot, d, how, by, priority, push)


def step_as(ctx: TurnContext, robot: Robot, d: int, how: str, by: str, priority: int | None, push: bool) -> int:
    """:func:`try_step` with every argument given, the robot's :class:`Move` (if any) already set."""
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
            if not robot.on_board:   # (the property: ``robot.pos`` was just set, and a checker would take it as set)
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


class moving_as:
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
