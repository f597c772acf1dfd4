"""The working state of one turn's resolution: robots, the event log, damage and destruction."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from .board import Board
from .cards import Card, locked_registers
from .geometry import Square, square_name
from .state import Event, Robot, Rules


@dataclass(slots=True)
class Hit:
    """Damage that lands with the rest of its step (lasers are simultaneous)."""

    robot: Robot
    amount: int
    step: str
    source: str


@dataclass
class TurnContext:
    board: Board
    rules: Rules
    robots: list[Robot]
    programs: dict[str, list[Card | None]]
    rng: random.Random
    #: cards nobody holds this turn (randomizers draw from them)
    undealt: list[Card] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    phase: int | str = "start"
    step: str = ""
    winner: str | None = None
    pending_hits: list[Hit] = field(default_factory=list)
    #: the card each robot executes in the current phase (randomizers may replace it)
    current: dict[str, Card] = field(default_factory=dict)
    #: robot name -> square it moved to under its own card, not yet written to the log
    _pending_move: dict[str, Square] = field(default_factory=dict)
    #: per-turn notes an element keeps about a robot (e.g. ramps), cleared each phase
    notes: dict[str, Any] = field(default_factory=dict)
    #: facing chosen for robots that re-enter at the end of this turn
    reentry: dict[str, int] = field(default_factory=dict)
    #: robots the fence has shocked in the current register phase
    fenced: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.by_name = {r.name: r for r in self.robots}

    # -- the log ---------------------------------------------------------------------------------
    def emit(self, robot: Robot | None, text: str, **data: Any) -> None:
        if robot is not None and robot.name in self._pending_move:
            self._flush_move(robot)
        self.events.append(Event(self.phase, self.step, robot.name if robot else None, text, data or None))

    def note_move(self, robot: Robot) -> None:
        """Remember that ``robot`` moved under its own card; the log gets one 'move to' per card."""
        assert robot.pos is not None
        self._pending_move[robot.name] = robot.pos

    def _flush_move(self, robot: Robot) -> None:
        sq = self._pending_move.pop(robot.name)
        card = self.current.get(robot.name)
        data = {"card": str(card)} if card else None
        self.events.append(Event(self.phase, self.step, robot.name, f"move to {square_name(sq)}", data))

    def flush_moves(self) -> None:
        for name in list(self._pending_move):
            self._flush_move(self.by_name[name])

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
        return all(o is robot or o.pos != robot.pos for o in self.robots)

    # -- damage ----------------------------------------------------------------------------------
    def fence(self, robot: Robot) -> None:
        """House rule ``edge = fence``: trying to leave the board costs 2 HP, once per register phase."""
        if robot.name not in self.fenced:
            self.fenced.add(robot.name)
            self.damage(robot, 2, "fence")

    def damage(self, robot: Robot, amount: int, cause: str, **data: Any) -> None:
        """Damage now (not simultaneous); destroys at 10."""
        if robot.pos is None or amount <= 0:
            return
        before = robot.damage
        robot.damage = min(10, robot.damage + amount)
        self.emit(robot, f"-{amount} HP", cause=cause, **data)
        if robot.damage >= 10:
            self.destroy(robot, cause)
            return
        for reg in locked_registers(robot.damage):
            if reg not in locked_registers(before):
                self.emit(robot, f"register {reg} fused")

    def hit_later(self, robot: Robot, amount: int, source: str) -> None:
        self.pending_hits.append(Hit(robot, amount, self.step, source))

    def apply_hits(self) -> None:
        """Land every pending hit of the step together, then destroy whoever reached 10 damage."""
        hits, self.pending_hits = self.pending_hits, []
        doomed: list[Robot] = []
        for hit in hits:
            robot = hit.robot
            if robot.pos is None:
                continue
            before = robot.damage
            robot.damage = min(10, robot.damage + hit.amount)
            self.emit(robot, f"-{hit.amount} HP", cause="laser", by=hit.source)
            if robot.damage >= 10:
                if robot not in doomed:
                    doomed.append(robot)
            else:
                for reg in locked_registers(robot.damage):
                    if reg not in locked_registers(before):
                        self.emit(robot, f"register {reg} fused")
        for robot in doomed:
            self.destroy(robot, "laser")

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
        robot.options.clear()
        robot.virtual = False
        robot.first_turn = False
        robot.powered_down = False
