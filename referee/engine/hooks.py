"""Hook types: what each step of the timing table calls its handlers with, checked at registration.

Every step of :mod:`referee.engine.timing` declares the hook types it dispatches. A handler is
refused when it names a step that does not exist, a hook type the step does not dispatch, or has
the wrong number of parameters for its type. The types:

``turn``   ``(ctx)``                          start and end of turn steps
``phase``  ``(ctx, phase)``                   reveal, board elements, lasers, checkpoints
``card``   ``(ctx, robot, card, plan)``       before a card executes (move and turn cards); may
                                              change the :class:`~referee.engine.movement.MovePlan`
``cross``  ``(ctx, robot, d) -> bool``        a robot is about to leave its square toward ``d``;
                                              False blocks it
``enter``  ``(ctx, robot, came_from, d)``     a robot has just entered a square (by any move)
``rotate`` ``(ctx, robot, card)``             a turn card has just turned the robot on its square
``stop``   ``(ctx, robot, card, plan)``       the card is over; the robot stands where it ended

Handlers come from three places, run in this order within a step: the board's elements on the
square (or side) concerned, the robot's own effects (:data:`EFFECTS`: options and statuses it
carries), then the core rules.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .timing import CARD, CROSS, ENTER, PHASE, ROTATE, STEP_IDS, STOP, TURN

#: hook type -> the parameters its handlers take
SHAPES: dict[str, tuple[str, ...]] = {
    TURN: ("ctx",),
    PHASE: ("ctx", "phase"),
    CARD: ("ctx", "robot", "card", "plan"),
    CROSS: ("ctx", "robot", "d"),
    ENTER: ("ctx", "robot", "came_from", "d"),
    ROTATE: ("ctx", "robot", "card"),
    STOP: ("ctx", "robot", "card", "plan"),
}
#: hook types dispatched while a robot executes a card, keyed by square (cross: by square side)
MOVE_TYPES = (CARD, CROSS, ENTER, ROTATE, STOP)

Handler = Callable[..., Any]


class HookError(ValueError):
    """A handler the timing table cannot dispatch."""


_checked: dict[tuple[str, str, int], None] = {}


def _arity(fn: Handler) -> int:
    params = inspect.signature(fn).parameters.values()
    return sum(1 for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
               and p.default is p.empty)


def hook_type(step_id: str, type_: str | None = None) -> str:
    """The hook type a handler of ``step_id`` has: ``type_`` checked, or the step's only one."""
    step = STEP_IDS.get(step_id)
    if step is None:
        raise HookError(f"unknown step {step_id!r}")
    if type_ is None:
        if len(step.hooks) != 1:
            raise HookError(f"step {step_id!r} dispatches {', '.join(step.hooks)}: say which")
        return step.hooks[0]
    if type_ not in step.hooks:
        raise HookError(f"step {step_id!r} dispatches {', '.join(step.hooks)} hooks, not {type_!r}")
    return type_


def check(step_id: str, fn: Handler, type_: str | None = None) -> str:
    """Refuse a handler the step cannot call; return its hook type."""
    t = hook_type(step_id, type_)
    key = (step_id, t, id(fn))  # order-free: a cache key, never an order
    if key not in _checked:
        want = len(SHAPES[t])
        if _arity(fn) != want:
            raise HookError(f"a {t} handler of {step_id!r} takes ({', '.join(SHAPES[t])}), "
                            f"not {fn.__name__}{inspect.signature(fn)}")
        _checked[key] = None
    return t


@dataclass(frozen=True, slots=True)
class Hook:
    """One handler for one step: ``on("move.flamers", burn, ENTER)``."""

    step: str
    fn: Handler
    type: str


def on(step_id: str, fn: Handler, type_: str | None = None) -> Hook:
    """A checked hook; ``type_`` may be left out when the step dispatches one type only."""
    return Hook(step_id, fn, check(step_id, fn, type_))


@dataclass
class Effect:
    """Something a robot carries (an option card, a status such as flying) that acts in steps.

    ``hooks`` act on the robot carrying the effect, wherever it stands, after the hooks of the
    board's elements in the same step.
    """

    name: str
    summary: str = ""
    hooks: tuple[Hook, ...] = ()
    #: ``(ctx, robot, hit) -> amount``: what is left of a hit on the robot (armour, shields...)
    guard: Callable[[Any, Any, Any], int] | None = None
    #: ``(ctx, robot, phase)``: a weapon; fires instead of the main laser in the registers the
    #: player's FIRE orders name it for
    weapon: Callable[[Any, Any, int], None] | None = None
    #: ``(ctx, robot, phase) -> reason | None``: why the weapon cannot act this register (Scrambler in
    #: register 5...); then the main laser fires instead
    unable: Callable[[Any, Any, int], str | None] | None = None
    #: step id -> handler for steps outside the robots' moves: ``(ctx, robot, phase)`` in a phase step,
    #: ``(ctx, robot)`` in a start or end of turn step; run after the board's and the core's handlers
    steps: dict[str, Callable[..., None]] = field(default_factory=dict)
    #: ``(ctx, robot, shot)``: changes the robot's main laser shot before it fires (more damage, a
    #: second beam backwards, through a wall, something instead of damage)
    aim: Callable[[Any, Any, Any], None] | None = None
    #: ``(ctx, robot) -> bool``: True keeps the robot from being turned by the board (gears, belts)
    steady: Callable[[Any, Any], bool] | None = None
    #: ``(ctx, robot)``: called when the robot is destroyed, after it has lost its options
    on_destroyed: Callable[[Any, Any], None] | None = None
    #: hook type -> hooks, filled at registration
    by_type: dict[str, list[Hook]] = field(default_factory=dict)


EFFECTS: dict[str, Effect] = {}


def register_effect(effect: Effect) -> Effect:
    if effect.name in EFFECTS:
        raise ValueError(f"effect {effect.name!r} registered twice")
    for hook in effect.hooks:
        if hook.type not in MOVE_TYPES:
            raise HookError(f"effect {effect.name!r}: only move hooks ({', '.join(MOVE_TYPES)}) act on a robot")
        check(hook.step, hook.fn, hook.type)
        effect.by_type.setdefault(hook.type, []).append(hook)
    for step_id, fn in effect.steps.items():
        t = hook_type(step_id)
        if t not in (TURN, PHASE):
            raise HookError(f"effect {effect.name!r}: step {step_id!r} dispatches {t} hooks; use ``hooks``")
        want = 3 if t == PHASE else 2
        if _arity(fn) != want:
            raise HookError(f"effect {effect.name!r}: a handler of {step_id!r} takes "
                            f"{'(ctx, robot, phase)' if t == PHASE else '(ctx, robot)'}")
    EFFECTS[effect.name] = effect
    return effect
