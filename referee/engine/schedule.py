"""A board's schedules: for the start, the reveal, the rest of a register phase and the end of the turn, the steps
some handler acts in (the board's elements, the core steps, the robots' options and statuses), and running them."""

from __future__ import annotations

from collections.abc import Callable

from .board import Board
from .context import TurnContext
from .core_steps import CORE_PHASE, CORE_TURN, OPTION_CORE
from .hooks import EFFECTS
from .state import FLYING, Robot
from .timing import BOARD, CHECKPOINTS, LASERS, PHASE, REVEAL, TIMING
from .timing import END as END_SEQ
from .timing import START as START_SEQ
from .turn_result import label


def _schedule(board: Board, sequences: tuple[str, ...], effects: bool) -> list[tuple[str, list[Callable[..., None]]]]:
    """The steps of ``sequences`` some handler acts in: the board's, the core's, and (``effects``) those of
    options and statuses (a turn where no robot carries any runs without them)."""
    plan = board.plan()
    out = []
    for st in TIMING:
        if st.sequence not in sequences:
            continue
        handlers = list(plan.get(st.id, ()))
        core = CORE_PHASE.get(st.id) or CORE_TURN.get(st.id) or (OPTION_CORE.get(st.id) if effects else None)
        if core is not None:
            handlers.append(core)
        if effects and any(st.id in e.steps for e in EFFECTS.values()):
            handlers.append(_effects_phase(st.id) if st.hooks == (PHASE,) else _effects_turn(st.id))
        if handlers:
            out.append((label(st.id), handlers))
    return out


def _acting(step_id: str) -> dict[str, Callable[..., None]]:
    """Effect name -> its handler of ``step_id``."""
    return {name: e.steps[step_id] for name, e in EFFECTS.items() if step_id in e.steps}


def _effects_phase(step_id: str) -> Callable[[TurnContext, int], None]:
    """The handler running, in a phase step, what the robots' options and statuses do there."""
    acting = _acting(step_id)

    def run(ctx: TurnContext, phase: int) -> None:
        for robot in ctx.robots:
            if robot.options or robot.statuses:
                for name in robot.effects():
                    fn = acting.get(name)
                    if fn is not None:
                        fn(ctx, robot, phase)
    return run


def _effects_turn(step_id: str) -> Callable[[TurnContext], None]:
    """The handler running, in a start or end of turn step, what the robots' options and statuses do."""
    acting = _acting(step_id)

    def run(ctx: TurnContext) -> None:
        for robot in ctx.robots:
            if robot.options or robot.statuses:
                for name in robot.effects():
                    fn = acting.get(name)
                    if fn is not None:
                        fn(ctx, robot)
    return run


Schedule = list[tuple[str, list[Callable[..., None]]]]


def board_schedules(board: Board) -> dict[bool, dict[str, Schedule]]:
    """The board's schedules, with (True) and without (False) the options' and statuses' handlers."""
    cached = board.cache.get("schedule")
    if cached is None:
        cached = board.cache["schedule"] = {effects: {
            "start": _schedule(board, (START_SEQ,), effects),
            "reveal": _schedule(board, (REVEAL,), effects),
            "after": _schedule(board, (BOARD, LASERS, CHECKPOINTS), effects),
            "end": _schedule(board, (END_SEQ,), effects),
        } for effects in (False, True)}
    return cached


def carries_any(robots: list[Robot]) -> bool:
    """Whether any robot carries an option or a status (the schedules with their handlers are needed)."""
    for r in robots:  # noqa: SIM110 (a loop: no generator to make, several times a phase)
        if r.options or r.statuses:
            return True
    return False


def run_phase_steps(ctx: TurnContext, phase: int, schedule: list[tuple[str, list[Callable[..., None]]]],
                     carrying: bool) -> None:
    """Run a register phase's steps; ``carrying``: some robot carries an option or a status (it may fly)."""
    if not schedule:
        return
    flying = False
    if carrying:
        for r in ctx.robots:
            if r.statuses and FLYING in r.statuses:
                flying = True
                break
    if not flying:   # (most phases: every handler runs as it is)
        for step_label, handlers in schedule:
            ctx.step = step_label
            for handler in handlers:
                handler(ctx, phase)
            if ctx.pending_hits:
                ctx.apply_hits()
        return
    for step_label, handlers in schedule:
        ctx.step = step_label
        for handler in handlers:
            if flying and handler in ctx.board.floor_handlers():
                _grounded(ctx, phase, handler)
            else:
                handler(ctx, phase)
        if ctx.pending_hits:
            ctx.apply_hits()


def _grounded(ctx: TurnContext, phase: int, handler: Callable[..., None]) -> None:
    """Run a floor element's step as if flying robots were not there (they are above it)."""
    everyone = ctx.robots
    ctx.robots = [r for r in everyone if FLYING not in r.statuses]
    try:
        handler(ctx, phase)
    finally:
        ctx.robots = everyone


def run_turn_steps(ctx: TurnContext, schedule: list[tuple[str, list[Callable[..., None]]]]) -> None:
    for step_label, handlers in schedule:
        ctx.step = step_label
        for handler in handlers:
            handler(ctx)
