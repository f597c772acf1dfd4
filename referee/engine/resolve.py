"""Resolving a turn: the five register phases and the end of turn, step by step in timing order
(:class:`TurnRun`, :func:`resolve_turn`). The steps run come from the board's schedules (:mod:`.schedule`)."""

from __future__ import annotations

from .board import Board
from .card_moves import execute_card
from .cards import DECK, Card
from .context import TurnContext
from .core_steps import CORE_PHASE, CORE_TURN
from .decisions import Answers
from .movement import AFTER_MOVES, FOLLOWS, MOVERS, run_after_moves, run_movers
from .schedule import board_schedules, carries_any, run_phase_steps, run_turn_steps
from .state import END, START, BoardState, Robot, RobotRecord, Rules, record_robots
from .timing import STEP_IDS
from .turn_result import TurnResult, engine_result, label

__all__ = ["TurnResult", "TurnRun", "label", "resolve_turn"]

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
        self._schedules = board_schedules(board)
        #: whether anything acts in the reveal step on this board
        self._reveals = bool(self._schedules[True]["reveal"] or self._schedules[False]["reveal"])
        self.ctx.phase = START
        run_turn_steps(self.ctx, self._schedules[carries_any(robots)]["start"])
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
        if ctx.fenced:
            ctx.fenced.clear()
        if ctx.phase_notes:
            ctx.phase_notes.clear()
        programs = ctx.programs
        at = phase - 1
        for robot in ctx.robots:
            if robot.pos is not None and not robot.powered_down:
                prog = programs.get(robot.name)
                if prog and len(prog) > at:
                    card = prog[at]
                    if card is not None:
                        current[robot.name] = card
        schedules = self._schedules
        if self._reveals:
            carrying = carries_any(ctx.robots)
            run_phase_steps(ctx, phase, schedules[carrying]["reveal"], carrying)
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
        carrying = carries_any(ctx.robots)
        run_phase_steps(ctx, phase, schedules[carrying]["after"], carrying)
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
            run_turn_steps(ctx, self._schedules[carries_any(ctx.robots)]["end"])
            self._frame()
        return engine_result(ctx.robots, ctx.events, ctx.winner, self.phases_run, end_of_turn, self.played, self.frames,
                             ctx.decisions, ctx.board_state, ctx.option_deck)

    def set_card(self, robot: str, register: int, card: Card | None) -> None:
        """Put ``card`` in a register not yet run (a search trying another card)."""
        if register <= self.phases_run:
            raise ValueError(f"register {register} has already run")
        program = self.ctx.programs.setdefault(robot, [None] * 5)
        program[register - 1] = card

    def copy(self) -> TurnRun:
        """An independent copy of the turn as it stands (robots, cards, generator, logs)."""
        return _TwinRun(self)


class _TwinRun(TurnRun):
    """:meth:`TurnRun.copy`'s copy: made from the run it copies, without running a turn's start again."""

    def __init__(self, run: TurnRun) -> None:   # (``TurnRun.__init__`` is the turn's start: not called)
        self.phases = run.phases
        self.record = run.record
        self.ctx = run.ctx.copy()
        self.played = {k: list(v) for k, v in run.played.items()}
        self.frames = list(run.frames)
        self.phases_run = run.phases_run
        self._schedules = run._schedules
        self._reveals = run._reveals


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


assert all(k in STEP_IDS for k in [*CORE_PHASE, *CORE_TURN])
