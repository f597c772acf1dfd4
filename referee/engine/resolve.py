"""Resolving a turn: the five register phases and the end of turn, step by step in timing order."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from . import shown
from .board import Board
from .cards import DECK, Card, locked_registers
from .context import TurnContext
from .decisions import Answers, Decision
from .elements.lasers import robot_lasers
from .events import Event, LogEntry, made_events
from .geometry import square_name
from .hooks import EFFECTS
from .movement import AFTER_MOVES, FOLLOWS, MOVERS, PUSH, execute_card, run_after_moves, run_movers, try_step
from .state import (
    END,
    FLYING,
    HELD,
    START,
    TAMAGOTCHI,
    VIRTUALIZED,
    BoardState,
    Robot,
    RobotRecord,
    Rules,
    record_robots,
    restore_robots,
)
from .timing import BOARD, CHECKPOINTS, LASERS, PHASE, REVEAL, STEP_IDS, TIMING
from .timing import END as END_SEQ
from .timing import START as START_SEQ

shown.said("re-enter", "re-entered at {at} facing {facing}", "re-entered at {at}")
shown.said("wins", "touched the last flag and won the game")
shown.untold("out", "the Now line says it is out of the game")
shown.untold("powered down", "the story's first words say it")
shown.untold("powers down", "the player asked for it; the stage tables show it")
shown.untold("real", "the stage tables show it")
shown.untold("released", "the stage tables show it")

LABELS = {
    "start.power_down": "power down",
    "board.express_1": "express",
    "board.hyper_belts_1": "golden belts",
    "lasers.fire": "lasers",
    "checkpoints.touch": "checkpoints",
    "checkpoints.turn_real": "checkpoints",
    "checkpoints.winner": "checkpoints",
    "board.molten_ore": "ore flow",
    "start.options": "declarations",
    "reveal.options": "option cards",
    "reveal.tamagotchis": "tamagotchi cards",
    "checkpoints.tamagotchis": "checkpoints",
}


def label(step_id: str) -> str:
    """The short step name events carry (``robots``, ``belts``, ``lasers``...).

    Every step of the "robots move" sequence is ``robots`` (they act while robots execute their
    cards); other labels name one sequence only, but for ``power down``, whose start-of-turn and
    end-of-turn steps are told apart by the event's phase."""
    if step_id.startswith("move."):
        return "robots"
    return LABELS.get(step_id, step_id.split(".", 1)[1].replace("_", " "))


@dataclass
class TurnResult:
    robots: list[Robot]
    #: what happened, in order (the engine gives ``log`` instead: made events when first read)
    events: list[Event]
    winner: str | None = None
    #: register phases actually run (fewer than asked when someone won)
    phases_run: int = 0
    end_of_turn: bool = False
    #: cards played this turn, per robot and register, as executed (randomizers may change them)
    played: dict[str, list[Card | None]] = field(default_factory=dict)
    #: the robots at the start of the turn (after power-down repairs), after each register phase run,
    #: and (when the end of turn ran) after it: what the report's pictures show (the engine gives
    #: ``frame_records`` instead: made robots when first read)
    frames: list[list[Robot]] = field(default_factory=list)
    #: every decision an effect asked for this turn, with its answer and where the answer came from
    decisions: list[Decision] = field(default_factory=list)
    #: what the board's elements remember after the turn (pistons, turrets...): the next turn's input
    board_state: BoardState = field(default_factory=BoardState)
    #: the option deck as the turn left it (top first); None when the turn was given none and used none
    option_deck: list[str] | None = None
    #: the log as the engine keeps it (:data:`.events.LogEntry`)
    log: list[LogEntry] = field(default_factory=list, repr=False, compare=False)
    #: the frames as the engine records them (:func:`.state.record_robots`)
    frame_records: list[tuple[RobotRecord, ...]] = field(default_factory=list, repr=False, compare=False)


def _made_when_read() -> None:
    """``TurnResult.events`` and ``frames`` made from the engine's ``log`` and ``frame_records`` the first time they
    are read (reports read them; a search or a benchmark of the engine need not)."""

    def get_events(self: TurnResult) -> list[Event]:
        found: list[Event] = self.__dict__["_events"]
        if not found and self.log:
            found = self.__dict__["_events"] = made_events(self.log)
        return found

    def put_events(self: TurnResult, events: list[Event]) -> None:
        self.__dict__["_events"] = events

    def get_frames(self: TurnResult) -> list[list[Robot]]:
        found: list[list[Robot]] = self.__dict__["_frames"]
        if not found and self.frame_records:
            found = self.__dict__["_frames"] = [restore_robots(record) for record in self.frame_records]
        return found

    def put_frames(self: TurnResult, frames: list[list[Robot]]) -> None:
        self.__dict__["_frames"] = frames

    TurnResult.events = property(get_events, put_events, doc="What happened, in order.")  # type: ignore[assignment]
    TurnResult.frames = property(get_frames, put_frames, doc="The robots before and after each stage.")  # type: ignore[assignment]


_made_when_read()


# -- core steps: owned by the robots themselves, not by any board element -------------------------
def power_down_repairs(ctx: TurnContext) -> None:
    for robot in ctx.robots:
        if robot.pos is not None and robot.powered_down:
            ctx.emit(robot, "powered down")
            if ctx.repair(robot):
                for reg in sorted(robot.locked):
                    ctx.emit(robot, "released", {"register": reg})
                robot.locked.clear()


def turn_real_when_alone(ctx: TurnContext, phase: int) -> None:
    for robot in ctx.robots:
        if (robot.pos is not None and robot.virtual and not robot.first_turn and VIRTUALIZED not in robot.statuses
                and TAMAGOTCHI not in robot.statuses and ctx.alone(robot)):
            robot.virtual = False
            ctx.emit(robot, "real")


def find_winner(ctx: TurnContext, phase: int) -> None:
    total = ctx.board.flag_count
    if not total or ctx.winner:
        return
    for r in ctx.robots:  # (a loop: nobody has finished in almost every phase, no list to make)
        if r.flags >= total and r.pos is not None:
            break
    else:
        return
    done = [r for r in ctx.robots if r.pos is not None and r.flags >= total]
    if done:
        # two robots finishing in one phase: the higher priority card this phase wins
        done.sort(key=lambda r: ctx.current[r.name].priority if r.name in ctx.current else -1, reverse=True)
        ctx.winner = done[0].name
        ctx.emit(done[0], "wins")


def end_first_turn(ctx: TurnContext) -> None:
    for robot in ctx.robots:
        if robot.pos is not None and robot.virtual and robot.first_turn:
            robot.first_turn = False
            if ctx.alone(robot):
                robot.virtual = False
                ctx.emit(robot, "real")


def reenter(ctx: TurnContext) -> None:
    for robot in ctx.robots:
        if robot.pos is not None:
            continue
        if robot.lives <= 0:
            if robot.destroyed:
                ctx.emit(robot, "out")
            continue
        if robot.archive is None:
            continue
        ctx.place(robot, robot.archive, ctx.reentry.get(robot.name))
        robot.damage = 2
        robot.virtual = True
        robot.first_turn = True
        robot.locked.clear()
        ctx.emit(robot, "re-enter", {"at": square_name(robot.archive)}, facing="NESW"[robot.facing])


def power_down(ctx: TurnContext) -> None:
    for robot in ctx.robots:
        if robot.pos is None:
            robot.powered_down = False
            continue
        robot.powered_down = robot.power_down_next
        robot.power_down_next = False
        if robot.powered_down:
            ctx.emit(robot, "powers down")


def fuse(ctx: TurnContext) -> None:
    for robot in ctx.robots:
        if robot.pos is None:
            robot.locked.clear()
            continue
        if robot.damage < 5 and not robot.locked and not robot.option_data:  # nothing fused, held or to release
            robot.locked = {}
            continue
        program = ctx.programs.get(robot.name) or []
        keep: dict[int, Card] = {}
        for reg in locked_registers(robot.damage):
            card = robot.locked.get(reg)
            if card is None and reg <= len(program):
                card = program[reg - 1]
            if card is not None:
                keep[reg] = card
        held = robot.option_data.get(HELD)
        if held:  # registers a board element holds into the next turn (melting beams)
            for reg_text, ends in list(held.items()):
                reg = int(reg_text)
                if ends > 1 and reg in robot.locked:
                    keep.setdefault(reg, robot.locked[reg])
                if ends > 1:
                    held[reg_text] = ends - 1
                else:
                    del held[reg_text]
            if not held:
                del robot.option_data[HELD]
        for reg in sorted(robot.locked):
            if reg not in keep:
                ctx.emit(robot, "released", {"register": reg})
        robot.locked = keep


#: ctx.notes key: the moves option weapons ordered in the laser step: (robot name, direction, shooter)
OPTION_PUSHES = "option pushes"


def option_pushes(ctx: TurnContext, phase: int) -> None:
    """Robots moved by options (pressor and tractor beams, the mini howitzer) move one square now,
    meeting what they enter (a pit swallows them)."""
    moves = ctx.notes.pop(OPTION_PUSHES, None)
    if not moves:
        return
    for name, d, by in moves:
        robot = ctx.by_name[name]
        if robot.pos is not None:
            try_step(ctx, robot, d, PUSH, by=by)


#: core steps needed only when some robot carries an option or a status
OPTION_CORE: dict[str, Callable[[TurnContext, int], None]] = {"lasers.option_pushes": option_pushes}

CORE_PHASE: dict[str, Callable[[TurnContext, int], None]] = {
    "lasers.fire": robot_lasers,
    "checkpoints.turn_real": turn_real_when_alone,
    "checkpoints.winner": find_winner,
}
CORE_TURN: dict[str, Callable[[TurnContext], None]] = {
    "start.power_down": power_down_repairs,
    "end.turn_real": end_first_turn,
    "end.reentry": reenter,
    "end.power_down": power_down,
    "end.fuse": fuse,
}


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


def _schedules(board: Board) -> dict[bool, dict[str, Schedule]]:
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


def _carrying(robots: list[Robot]) -> bool:
    """Whether any robot carries an option or a status (the schedules with their handlers are needed)."""
    for r in robots:  # noqa: SIM110 (a loop: no generator to make, several times a phase)
        if r.options or r.statuses:
            return True
    return False


#: the house rules of a turn given none (the defaults; rules are frozen, so one serves every turn)
_HOUSE_RULES = Rules()


def _priority(item: tuple[str, Card]) -> int:
    return item[1].priority


def _followers_after(order: list[tuple[str, Card]], follows: dict[str, str]) -> list[tuple[str, Card]]:
    """``order`` with each robot that plays another's card moved right behind that robot (and its followers)."""
    out = [item for item in order if item[0] not in follows]
    waiting = [item for item in order if item[0] in follows]
    while waiting:
        placed = {name for name, _ in out}
        ready = [item for item in waiting if follows[item[0]] in placed]
        if not ready:  # a ring of robots controlling each other: after the others, by priority
            out.extend(waiting)
            break
        for item in ready:
            waiting.remove(item)
            leader = follows[item[0]]
            at = max(i for i, (name, _) in enumerate(out) if name == leader or follows.get(name) == leader)
            out.insert(at + 1, item)
    return out


class TurnRun:
    """One turn being resolved, a register phase at a time: the stepping API search code uses.

    ``TurnRun(...)`` runs the start of the turn; :meth:`step` runs the next register phase,
    :meth:`finish` the end of the turn and returns the :class:`TurnResult`. :meth:`copy` is a cheap
    copy of the whole state (robots, generator, cards) to explore another line from here. With
    ``record=False`` no events and no frames are kept (what a search wants).
    """

    def __init__(self, board: Board, robots: list[Robot], programs: dict[str, list[Card | None]], *,
                 rules: Rules | None = None, seed: int | str = 0, phases: int = 5,
                 undealt: list[Card] | None = None, reentry: dict[str, int] | None = None,
                 answers: Answers | None = None, record: bool = True,
                 board_state: BoardState | None = None, option_deck: list[str] | None = None) -> None:
        robots = [r.copy() for r in robots]
        for r in robots:
            r.destroyed = False
        if undealt is None:
            used = {c for prog in programs.values() for c in prog if c is not None}
            undealt = [c for c in DECK if c not in used]
        self.phases = phases
        self.record = record
        self.ctx = TurnContext(board=board, rules=rules or _HOUSE_RULES, robots=robots, programs=dict(programs),
                               rng_seed=f"turn:{seed}", undealt=list(undealt),
                               reentry=dict(reentry or {}), answers=answers or Answers(), record=record,
                               board_state=board_state.copy() if board_state is not None else BoardState())
        if option_deck is not None:  # a card given to a robot (a GM's SET) is no longer in the deck
            held = {name for r in robots for name in r.options}
            option_deck = [name for name in option_deck if name not in held]
        self.ctx.option_deck = option_deck
        self.ctx.deck_seed = seed
        self.played: dict[str, list[Card | None]] = {r.name: [] for r in robots}
        self.frames: list[tuple[RobotRecord, ...]] = []
        self.phases_run = 0
        self._schedules = _schedules(board)
        #: whether anything acts in the reveal step on this board
        self._reveals = bool(self._schedules[True]["reveal"] or self._schedules[False]["reveal"])
        self.ctx.phase = START
        _run_turn_steps(self.ctx, self._schedules[_carrying(robots)]["start"])
        self._frame()

    @property
    def robots(self) -> list[Robot]:
        return self.ctx.robots

    @property
    def done(self) -> bool:
        """No register phase is left to run (all asked for ran, or someone won)."""
        return self.phases_run >= self.phases or self.ctx.winner is not None

    def _frame(self) -> None:
        if self.record:
            self.frames.append(record_robots(self.ctx.robots))

    def step(self) -> None:
        """Run the next register phase: reveal, robots move in priority order, board, lasers, checkpoints."""
        if self.done:
            raise ValueError("no register phase left to run")
        ctx = self.ctx
        phase = self.phases_run + 1
        self.phases_run = phase
        ctx.phase = phase
        current: dict[str, Card] = {}
        ctx.current = current
        ctx.fenced.clear()
        ctx.phase_notes.clear()
        programs = ctx.programs
        for robot in ctx.robots:
            prog = programs.get(robot.name)
            if robot.pos is not None and not robot.powered_down and prog and len(prog) >= phase:
                card = prog[phase - 1]
                if card is not None:
                    current[robot.name] = card
        schedules = self._schedules
        if self._reveals:
            carrying = _carrying(ctx.robots)
            _run_phase_steps(ctx, phase, schedules[carrying]["reveal"], carrying)
        ctx.step = "robots"
        order = sorted(ctx.current.items(), key=_priority, reverse=True)
        if FOLLOWS in ctx.phase_notes:  # a robot playing another's card moves right after it, whatever the seats
            order = _followers_after(order, ctx.phase_notes[FOLLOWS])
        movers = MOVERS in ctx.phase_notes  # ghosts move among the cards (``movement.add_mover``)
        for name, card in order:
            if movers:
                run_movers(ctx, card.priority)
            robot = ctx.by_name[name]
            if robot.pos is None or robot.powered_down:
                continue
            execute_card(ctx, robot, card)
        if movers:
            run_movers(ctx, -1)
            del ctx.phase_notes[MOVERS]
        if AFTER_MOVES in ctx.notes:  # after the robots move segment (repeaters)
            run_after_moves(ctx)
        played, current = self.played, ctx.current
        for robot in ctx.robots:
            cards = played.get(robot.name)
            if cards is None:
                cards = played[robot.name] = [None] * (phase - 1)
            cards.append(current.get(robot.name))
        carrying = _carrying(ctx.robots)
        _run_phase_steps(ctx, phase, schedules[carrying]["after"], carrying)
        self._frame()

    def finish(self) -> TurnResult:
        """Run what is left: the remaining register phases, then (after five) the end of the turn."""
        while not self.done:
            self.step()
        ctx = self.ctx
        end_of_turn = self.phases == 5 and not ctx.winner
        if end_of_turn:
            ctx.phase = END
            ctx.phase_notes.clear()
            _run_turn_steps(ctx, self._schedules[_carrying(ctx.robots)]["end"])
            self._frame()
        return TurnResult(robots=ctx.robots, events=[], log=ctx.events, winner=ctx.winner, phases_run=self.phases_run,
                          end_of_turn=end_of_turn, played=self.played, frame_records=self.frames,
                          decisions=ctx.decisions, board_state=ctx.board_state, option_deck=ctx.option_deck)

    def set_card(self, robot: str, register: int, card: Card | None) -> None:
        """Put ``card`` in a register not yet run (a search trying another card)."""
        if register <= self.phases_run:
            raise ValueError(f"register {register} has already run")
        program = self.ctx.programs.setdefault(robot, [None] * 5)
        program[register - 1] = card

    def copy(self) -> TurnRun:
        """An independent copy of the turn as it stands (robots, cards, generator, logs)."""
        twin = object.__new__(TurnRun)
        twin.phases = self.phases
        twin.record = self.record
        twin.ctx = self.ctx.copy()
        twin.played = {k: list(v) for k, v in self.played.items()}
        twin.frames = list(self.frames)
        twin.phases_run = self.phases_run
        twin._schedules = self._schedules
        twin._reveals = self._reveals
        return twin


def resolve_turn(board: Board, robots: list[Robot], programs: dict[str, list[Card | None]], *,
                 rules: Rules | None = None, seed: int | str = 0, phases: int = 5,
                 undealt: list[Card] | None = None, reentry: dict[str, int] | None = None,
                 answers: Answers | None = None, board_state: BoardState | None = None,
                 option_deck: list[str] | None = None) -> TurnResult:
    """Resolve one turn. Pure: the robots passed in are not changed; new ones come back.

    ``programs`` maps robot names to their five registers (locked ones included); a robot with
    no program (or a ``None`` register) does nothing in that phase. ``undealt`` is what randomizers
    draw from (by default the deck less every programmed card); ``reentry`` holds the facing
    chosen for robots that re-enter at the end of the turn; ``answers`` the players' orders and
    standing orders for the decisions effects ask for (:mod:`referee.engine.decisions`);
    ``board_state`` what the board's elements remember from the turns before (not changed: the new
    state comes back in the result). ``option_deck`` the game's option deck, top first (by default a
    fresh one shuffled from the seed, less the cards the robots hold, made only if the turn draws or
    loses a card); the result's ``option_deck`` is the deck the turn left (None when none was given
    and none was used).
    """
    return TurnRun(board, robots, programs, rules=rules, seed=seed, phases=phases, undealt=undealt,
                   reentry=reentry, answers=answers, board_state=board_state,
                   option_deck=option_deck).finish()


def _run_phase_steps(ctx: TurnContext, phase: int, schedule: list[tuple[str, list[Callable[..., None]]]],
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


def _run_turn_steps(ctx: TurnContext, schedule: list[tuple[str, list[Callable[..., None]]]]) -> None:
    for step_label, handlers in schedule:
        ctx.step = step_label
        for handler in handlers:
            handler(ctx)


assert all(k in STEP_IDS for k in [*CORE_PHASE, *CORE_TURN])
