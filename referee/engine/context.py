"""The working state of one turn's resolution: robots, the event log, damage and destruction."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from . import shown
from .board import Board
from .cards import Card
from .decisions import DECISION, DEFAULT, SACRIFICE, Answers, Decision, DecisionKey
from .events import LogEntry, Squares
from .geometry import Square
from .hooks import EFFECTS
from .option_deck import held_options, new_option_deck
from .option_orders import SACRIFICE_ORDER
from .state import BoardState, Robot, Rules

shown.cause("fence", story="destroyed by a fence")
# what locked a register, as the story tells it: "register 5 fused by damage"
shown.told("fused", "damage", "by damage")
shown.said("fused", with_hits=True)
# the option cards a robot draws and loses, as the story tells them
shown.said("option drawn", "drew the option card {option}")
shown.said("option lost", "lost the option card {option}")
shown.said("sacrificed", "lost the option card {option}")
shown.untold("no option", "the stage tables show it")
shown.untold("steady", "the Now line says where it faces")

#: the sacrifice threshold when the player said nothing (turn report rules)
DEFAULT_SACRIFICE_HP = 6


@dataclass(slots=True)
class Hit:
    """Damage on its way to a robot: how much, why, from whom, travelling which way."""

    robot: Robot
    amount: int
    cause: str
    #: who or what deals it (a robot's name, "board laser r3c4"), if anyone
    source: str | None = None
    #: the direction the damage travels (a beam fired east hits its target from the west), if any
    direction: int | None = None
    step: str = ""


@dataclass
class TurnContext:
    board: Board
    rules: Rules
    robots: list[Robot]
    programs: dict[str, list[Card | None]]
    #: what seeds the turn's random generator (:attr:`rng`), made the first time something draws from it
    rng_seed: str
    #: cards nobody holds this turn (randomizers draw from them)
    undealt: list[Card] = field(default_factory=list)
    #: the log (:data:`.events.LogEntry` lines; the result makes them :class:`.events.Event` when read)
    events: list[LogEntry] = field(default_factory=list)
    phase: int | str = "start"
    step: str = ""
    winner: str | None = None
    #: hits landing with the rest of the step: (robot, amount, cause, source, direction, step), see :class:`Hit`
    pending_hits: list[tuple[Robot, int, str, str | None, int | None, str]] = field(default_factory=list)
    #: the card each robot executes in the current phase (randomizers may replace it)
    current: dict[str, Card] = field(default_factory=dict)
    #: robot name -> square it moved to under its own card, not yet written to the log (the log gets one 'move to'
    #: per card; ``movement`` notes each square)
    pending_moves: dict[str, Square] = field(default_factory=dict)
    #: notes an element or option keeps through the turn (a gyroscope's declaration, tamagotchis gone...)
    notes: dict[str, Any] = field(default_factory=dict)
    #: notes kept through one register phase only: emptied as each phase starts and before the end of turn
    phase_notes: dict[str, Any] = field(default_factory=dict)
    #: robot name -> the move it is making now (``movement.Move``; see ``movement.move_of``)
    moving: dict[str, Any] = field(default_factory=dict)
    #: facing chosen for robots that re-enter at the end of this turn
    reentry: dict[str, int] = field(default_factory=dict)
    #: robots the fence has shocked in the current register phase
    fenced: set[str] = field(default_factory=set)
    #: the players' answers to the decisions effects ask for, and the decisions asked so far
    answers: Answers = field(default_factory=Answers)
    decisions: list[Decision] = field(default_factory=list)
    #: False: keep no events (a search stepping through registers needs none)
    record: bool = True
    #: what the board's elements remember between phases and turns (see ``state.BoardState``)
    board_state: BoardState = field(default_factory=BoardState)
    #: the option deck, top first (:mod:`referee.engine.option_deck`); lost cards go back under it. None
    #: until first used when the turn was given none: :meth:`deck` then shuffles one from ``deck_seed``
    option_deck: list[str] | None = None
    deck_seed: int | str = 0
    _rng: random.Random | None = None
    _rng_state: tuple[Any, ...] | None = None   # a copy's generator state, shared until it draws (None: the seed's)

    def __post_init__(self) -> None:
        self.by_name = {r.name: r for r in self.robots}
        #: the board's move hooks by type (``Board.move_hooks``): what acts on a robot carrying nothing
        self.hooks = self.board.move_hooks()

    @property
    def rng(self) -> random.Random:
        """The turn's random generator (randomizers, ghosts...), made when first used (a turn may draw nothing)."""
        if self._rng is None:
            state, self._rng_state = self._rng_state, None   # (a copy's: made without seeding, its state set here)
            self._rng = random.Random(self.rng_seed) if state is None else random.Random.__new__(random.Random)
            if state is not None:
                self._rng.setstate(state)
        return self._rng

    def copy(self) -> TurnContext:
        """An independent copy between two register phases: robots, cards, generator and logs (what a search
        copies for every state it tries). The board, rules, seeds, answers and re-entry are shared, read only;
        what a register phase fills as it runs (pending hits and moves, the moves under way) starts empty."""
        if self._rng is not None:  # its state, shared (a tuple) until either draws: this one makes its generator again
            self._rng_state, self._rng = self._rng.getstate(), None
        return TurnContext(
            board=self.board, rules=self.rules, robots=[r.copy() for r in self.robots],
            programs={k: list(v) for k, v in self.programs.items()}, rng_seed=self.rng_seed,
            undealt=list(self.undealt), events=list(self.events), phase=self.phase, step=self.step,
            winner=self.winner, current=dict(self.current), notes=dict(self.notes),
            phase_notes=dict(self.phase_notes), reentry=self.reentry, fenced=set(self.fenced), answers=self.answers,
            decisions=list(self.decisions), record=self.record, board_state=self.board_state.copy(),
            option_deck=None if self.option_deck is None else list(self.option_deck), deck_seed=self.deck_seed,
            _rng_state=self._rng_state)

    # -- the log ---------------------------------------------------------------------------------
    def emit(self, robot: Robot | None, kind: str, args: dict[str, Any] | None = None, **data: Any) -> None:
        """Log an event of ``kind`` (see :mod:`referee.engine.events`) with its args and data keys."""
        if not self.record:
            return
        if robot is not None and robot.name in self.pending_moves:
            self.flush_move(robot)
        self.events.append((self.phase, self.step, robot.name if robot else None, kind, args, data or None))

    def emit_card(self, robot: Robot, kind: str, args: dict[str, Any] | None, card: Card) -> None:
        """Log an event of a robot's card (its data: ``{"card": the card's text}``, made when read)."""
        if not self.record:
            return
        if robot.name in self.pending_moves:
            self.flush_move(robot)
        self.events.append((self.phase, self.step, robot.name, kind, args, card))

    def emit_unmade(self, robot: Robot, kind: str, where: Square | Squares, **data: Any) -> None:
        """Log an event whose args are made only when someone reads them: ``where`` a square (``{"to": "r5c4"}``)
        or a beam's squares (``{"path": ...}``), see :data:`.events.LogEntry`."""
        if not self.record:
            return
        if robot.name in self.pending_moves:
            self.flush_move(robot)
        self.events.append((self.phase, self.step, robot.name, kind, where, data or None))

    def flush_move(self, robot: Robot) -> None:
        sq = self.pending_moves.pop(robot.name)
        self.events.append((self.phase, self.step, robot.name, "move", sq, self.current.get(robot.name)))

    def flush_moves(self) -> None:
        """Log every move not yet logged (``flush_move`` for each robot, in the order they moved)."""
        pending = self.pending_moves
        if not pending:
            return
        current = self.current
        for name, sq in pending.items():
            self.events.append((self.phase, self.step, name, "move", sq, current.get(name)))
        pending.clear()

    # -- who is where ----------------------------------------------------------------------------
    def robots_at(self, sq: Square) -> list[Robot]:
        return [r for r in self.robots if r.pos == sq]

    def real_robot_at(self, sq: Square, exclude: Robot | None = None) -> Robot | None:
        for r in self.robots:
            if r.pos == sq and not r.virtual and r is not exclude:
                return r
        return None

    def active(self) -> list[Robot]:
        """Robots on the board."""
        return [r for r in self.robots if r.pos is not None]

    def alone(self, robot: Robot) -> bool:
        pos = robot.pos
        for o in self.robots:  # noqa: SIM110 (a loop: no generator to make, for every virtual robot every phase)
            if o.pos == pos and o is not robot:
                return False
        return True

    # -- decisions -------------------------------------------------------------------------------
    def decide(self, robot: Robot, key: DecisionKey, default: Any, note: Callable[[Any], str | None] | None = None
               ) -> Any:
        """The player's answer to ``key`` (turn's orders, then standing orders, then ``default``),
        recorded in ``decisions`` and as a ``decision`` event; ``note`` says what the engine makes of an
        answer it cannot follow."""
        found = self.answers.answer(robot.name, key)
        answer, source = found if found is not None else (default, DEFAULT)
        decision = Decision(robot.name, key, answer, source, note(answer) if note else None)
        self.decisions.append(decision)
        if self.record:  # logged where it is taken; a robot's move not yet logged stays where it would be
            self.events.append((self.phase, self.step, robot.name, DECISION, decision.event_args(), None))
        return answer

    # -- damage ----------------------------------------------------------------------------------
    def fence(self, robot: Robot) -> None:
        """House rule ``edge = fence``: trying to leave the board costs 2 HP, once per register phase."""
        if robot.name not in self.fenced:
            self.fenced.add(robot.name)
            self.damage(robot, 2, "fence")

    def damage(self, robot: Robot, amount: int, cause: str, source: str | None = None,
               direction: int | None = None) -> None:
        """Damage now (not simultaneous); destroys at 10. The one door for damage dealt at once."""
        if robot.pos is None or amount <= 0:
            return
        if robot.options or robot.statuses:
            destroyed = self._land(Hit(robot, amount, cause, source, direction, self.step))
        else:
            destroyed = self._wound(robot, amount, cause, source)
        if destroyed:
            self.destroy(robot, cause)

    def hit_later(self, robot: Robot, amount: int, source: str, direction: int | None = None,
                  cause: str = "laser") -> None:
        """Damage that lands with the rest of the step (:meth:`apply_hits`), as lasers do."""
        self.pending_hits.append((robot, amount, cause, source, direction, self.step))

    def apply_hits(self) -> None:
        """Land every pending hit of the step together, then destroy whoever reached 10 damage."""
        hits, self.pending_hits = self.pending_hits, []
        doomed: dict[str, tuple[Robot, str]] = {}
        for robot, amount, cause, source, direction, step in hits:
            if robot.pos is None:
                continue
            if robot.options or robot.statuses:  # what it carries may lessen the hit: a :class:`Hit` to guard
                hit = Hit(robot, amount, cause, source, direction, step)
                if self._land(hit):
                    doomed.setdefault(robot.name, (robot, hit.cause))
            elif self._wound(robot, amount, cause, source):
                doomed.setdefault(robot.name, (robot, cause))
        for robot, cause in doomed.values():
            self.destroy(robot, cause)

    def _land(self, hit: Hit) -> bool:
        """Write a hit to the robot (what it carries may lessen it) and log it; True at 10 damage."""
        robot = hit.robot
        if robot.options or robot.statuses:
            for name in robot.effects():
                effect = EFFECTS.get(name)
                if effect is not None and effect.guard is not None:
                    hit.amount = effect.guard(self, robot, hit)
            if hit.amount > 0 and robot.options:
                self._sacrifice(hit)
            if hit.amount <= 0:
                return False
        return self._wound(robot, hit.amount, hit.cause, hit.source)

    def _wound(self, robot: Robot, amount: int, cause: str, source: str | None) -> bool:
        """Write damage to the robot and log it (and the registers it fuses); True at 10 damage."""
        before = robot.damage
        robot.damage = min(10, before + amount)
        if self.record:  # (``emit`` written out: a laser step may land a hit on every robot)
            if robot.name in self.pending_moves:
                self.flush_move(robot)
            data = {"cause": cause, "by": source} if cause == "laser" or source is not None else {"cause": cause}
            self.events.append((self.phase, self.step, robot.name, "damage", {"amount": amount}, data))
        if robot.damage >= 10:
            return True
        if robot.damage >= 5:  # the registers ``locked_registers`` adds from ``before`` to the damage now
            for reg in range(max(1, 10 - robot.damage), max(1, 10 - before) if before >= 5 else 6):
                self.emit(robot, "fused", {"register": reg})
        return False

    def _sacrifice(self, hit: Hit) -> None:
        """At or below the player's threshold HP, the robot gives up an option card instead of each
        point of damage while it has one (threshold 0 means never); which one: the first its
        SACRIFICE ORDER names that it holds, else its newest."""
        robot = hit.robot
        threshold = self.decide(robot, DecisionKey(SACRIFICE), DEFAULT_SACRIFICE_HP)
        if not threshold:
            return
        taken = 0  # points of this hit already taken as damage
        while hit.amount > taken and robot.options:
            if robot.hp - taken > threshold:
                taken += 1
                continue
            option = self.choose_option(robot, SACRIFICE_ORDER)
            self.lose_option(robot, option, "sacrificed")
            hit.amount -= 1

    def choose_option(self, robot: Robot, subject: str) -> str:
        """The option a robot gives up: the first of its standing order ``subject`` it holds, else its newest
        (the order is recorded as a decision when one is on file)."""
        key = DecisionKey(subject)
        found = self.answers.answer(robot.name, key)
        order = self.decide(robot, key, None) if found is not None else None
        if isinstance(order, list | tuple):
            wanted = {str(name).casefold(): None for name in order}
            for name in wanted:
                for held in robot.options:
                    if held.casefold() == name:
                        return held
        return robot.options[-1]

    # -- option cards ----------------------------------------------------------------------------
    def drawing_order(self, robots: list[Robot]) -> list[Robot]:
        """``robots`` that draw from the option deck at one moment, in an order no listing decides: the
        priority of the card each plays in this phase (the last phase's at the end of the turn), highest
        first, robots without one after them by name (rules version 2: the order robots are listed in)."""
        if not self.rules.order_free:
            return robots
        current = self.current
        return sorted(robots, key=lambda r: (-current[r.name].priority if r.name in current else 1, r.name))

    def deck(self) -> list[str]:
        """The option deck; a turn given none shuffles a fresh one (less the cards held) when first used."""
        if self.option_deck is None:
            self.option_deck = new_option_deck(self.deck_seed, self.rules, held_options(self.robots))
        return self.option_deck

    def draw_option(self, robot: Robot, source: str) -> str | None:
        """The top card of the option deck goes to the robot (None when the deck is empty)."""
        deck = self.deck()
        if not deck:
            self.emit(robot, "no option", source=source)
            return None
        name = deck.pop(0)
        robot.options.append(name)
        self.emit(robot, "option drawn", {"option": name}, option=name, source=source)
        return name

    def lose_option(self, robot: Robot, name: str, why: str) -> None:
        """The robot loses an option (sacrificed, used up, destroyed by a hit...): it goes under the deck.

        ``why`` is the event kind logged (``sacrificed``, ``option used up``, ``option lost``)."""
        if name not in robot.options:
            return
        deck = self.deck()  # (made before the card leaves the robot, so a fresh deck does not hold it)
        robot.options.remove(name)
        robot.option_data.pop(name, None)
        deck.append(name)
        self.emit(robot, why, {"option": name}, option=name)

    def repair(self, robot: Robot, amount: int | None = None) -> int:
        """Repair ``amount`` damage (all of it when None); logs ``+n HP``; returns what was repaired."""
        got = robot.damage if amount is None else min(amount, robot.damage)
        if got > 0:
            robot.damage -= got
            self.emit(robot, "repair", {"amount": got})
        return got

    def place(self, robot: Robot, sq: Square | None, facing: int | None = None) -> None:
        """Put a robot on a square (teleporters, slides, re-entry) with no hooks and no log."""
        robot.pos = sq
        if facing is not None:
            robot.facing = facing

    def turn(self, robot: Robot, quarter_turns: int, **data: Any) -> None:
        """Turn a robot clockwise (gears, belts turning it); logs its new facing. A turn the board gives
        (no ``card`` in ``data``) does not turn a robot whose effects keep it steady (a gyroscope)."""
        if robot.options and "card" not in data:
            for name in robot.options:
                effect = EFFECTS.get(name)
                if effect is not None and effect.steady is not None and effect.steady(self, robot):
                    self.emit(robot, "steady", {"option": name}, option=name)
                    return
        robot.facing = (robot.facing + quarter_turns) % 4
        self.emit(robot, "face", {"dir": "NESW"[robot.facing]}, **data)

    def destroy(self, robot: Robot, cause: str) -> None:
        """Remove the robot from the board at once; its remaining registers do nothing."""
        if robot.pos is None:
            return
        self.emit(robot, "destroyed", cause=cause)
        robot.pos = None
        robot.destroyed = True
        robot.lives -= 1
        robot.damage = 10
        robot.locked.clear()
        lost = list(robot.options)
        statuses = sorted(robot.statuses)
        for name in lost:  # all options are lost, in the order held, under the deck
            self.lose_option(robot, name, "option lost")
        robot.option_data.clear()
        robot.statuses.clear()
        robot.virtual = False
        robot.first_turn = False
        robot.powered_down = False
        for name in [*lost, *statuses]:  # options, then statuses (a tamagotchi's robot dies with it)
            effect = EFFECTS.get(name)
            if effect is not None and effect.on_destroyed is not None:
                effect.on_destroyed(self, robot)
