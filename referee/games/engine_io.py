"""The engine's side of a stored turn: what goes in (:class:`TurnInputs`), running it, what comes out.

Pure with respect to the store: nothing here writes; :func:`run_engine` resolves a turn from its
stored snapshot, seed and rules, so the same row and inputs always give the same result.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..engine import RULES_VERSION, Board, BoardState, Card, Robot, Rules, TurnResult
from ..engine import resolve_turn as engine_resolve
from ..engine.decisions import Answers, DecisionKey
from ..engine.element_orders import BY_SUBJECT as ELEMENT_ORDERS
from ..engine.geometry import parse_dir
from ..engine.option_orders import BY_SUBJECT, RECOMPILE, order_key
from ..engine.stored import stored_events, stored_frames, stored_robots
from ..store.errors import GameStateError
from ..store.models import Order, Turn
from ..store.queries import load_course
from ..store.records import (
    option_orders_text,
    programs_of,
    programs_text,
    robots_of,
    undealt_of,
)


@dataclass
class TurnInputs:
    """What goes into the engine besides the turn's snapshot, seed and rules."""

    programs: dict[str, list[Card | None]]
    power_down: list[str]
    reentry: dict[str, str]
    standing: dict[str, Any]
    #: robot -> option orders for this turn only (``{subject: answer or {"<register>": answer}}``)
    option_orders: dict[str, Any] = field(default_factory=dict)

    def to_columns(self) -> dict[str, Any]:
        return {"programs": programs_text(self.programs),
                "power_down": list(self.power_down), "reentry": dict(self.reentry), "standing": dict(self.standing),
                "option_orders": option_orders_text(self.option_orders)}

    def answers(self) -> Answers:
        """The players' answers to the engine's decisions: this turn's option orders, then standing orders."""
        return Answers(orders={robot: option_answers(said) for robot, said in self.option_orders.items()},
                       standing=self.standing)


def option_answers(said: Mapping[str, Any]) -> dict[DecisionKey, Any]:
    """Stored option orders (``{subject: answer or {"<register>": answer}}``) by the engine's decision keys."""
    out: dict[DecisionKey, Any] = {}
    for subject, value in said.items():
        if subject not in BY_SUBJECT and subject not in ELEMENT_ORDERS:
            continue
        if isinstance(value, Mapping) and value and all(str(k) in ("1", "2", "3", "4", "5") for k in value):
            out.update({order_key(subject, int(reg)): answer for reg, answer in value.items()})
        else:
            out[order_key(subject)] = value
    return out


def turn_option_orders(turn: Turn, robot: str, order: Order | None) -> dict[str, Any]:
    """The option orders for this turn on file for ``robot``: those of its active orders, and RECOMPILE
    when its hand was dealt again (that is on the turn, so it holds whatever orders follow)."""
    said = dict((order.extra or {}).get("turn_options") or {}) if order is not None else {}
    if robot in (turn.first_hands or {}):
        said[RECOMPILE] = True
    return said


def stored_inputs(turn: Turn) -> TurnInputs:
    if turn.programs is None:
        raise GameStateError(f"turn {turn.number} has not been resolved")
    return TurnInputs(programs=programs_of(turn.programs),
                      power_down=list(turn.power_down or []), reentry=dict(turn.reentry or {}),
                      standing=dict(turn.standing or {}), option_orders=dict(turn.option_orders or {}))


def turn_rules(turn: Turn) -> Rules:
    """The rules ``turn`` is played under: its house rules, as the rules version it was dealt under played
    them (the game's version when it was dealt; a GM's ``SET RULES`` moves the game, never a dealt turn), so a
    turn is resolved, and a stored turn replayed, under the rules its players were dealt their cards under."""
    # a turn resolved before rules had a version was played under version 1; an open turn with none (dealt
    # before turns recorded it, which the migration to 0017 fills in) by this engine
    version = turn.rules_version or (RULES_VERSION if turn.status == "open" else 1)
    return Rules.from_dict(turn.rules).for_version(version)


@dataclass
class TurnStart:
    """Where a turn starts from, as the engine takes it: the real turn, its replays, and the runs that
    foresee it (PREVIEW, HINT, the autopilot) all start from this, board state included."""

    board: Board
    robots: list[Robot]
    rules: Rules
    undealt: list[Card]
    #: what the board's elements remember from the turns before (a broken barricade, a piston...)
    board_state: BoardState
    option_deck: list[str] | None


def turn_start(turn: Turn, course: str) -> TurnStart:
    """The starting state of ``turn`` on ``course`` (the one function for the real turn and its previews)."""
    return TurnStart(board=load_course(course), robots=robots_of(turn), rules=turn_rules(turn),
                     undealt=undealt_of(turn), board_state=BoardState.from_dict(turn.board_before),
                     option_deck=list(turn.option_deck) if turn.option_deck is not None else None)


def run_engine(turn: Turn, course: str, inputs: TurnInputs) -> TurnResult:
    """Resolve ``turn`` from its stored snapshot with ``inputs``. Pure: nothing is written."""
    start = turn_start(turn, course)
    for r in start.robots:
        if r.name in inputs.power_down:
            r.power_down_next = True
    reentry = {name: parse_dir(d) for name, d in inputs.reentry.items()}
    return engine_resolve(start.board, start.robots, inputs.programs, rules=start.rules, seed=turn.seed,
                          undealt=start.undealt, reentry=reentry, answers=inputs.answers(),
                          board_state=start.board_state, option_deck=start.option_deck)


def result_columns(result: TurnResult) -> dict[str, Any]:
    """A resolved turn's outcome as stored in the turn's columns."""
    frames = stored_frames(result)   # (straight from the engine's log and frame records: issue 46)
    return {
        "played": programs_text(result.played),
        "events": stored_events(result),
        "state_after": stored_robots(result, frames),
        "board_after": result.board_state.to_dict() if result.board_state else None,
        "frames": frames,
        "winner": result.winner,
        "phases_run": result.phases_run,
        "end_of_turn": result.end_of_turn,
    }


def stored_result(turn: Turn) -> dict[str, Any]:
    """The outcome stored for a resolved turn, comparable with :func:`result_columns`."""
    return {key: getattr(turn, key) for key in ("played", "events", "state_after", "board_after", "frames", "winner",
                                                "phases_run", "end_of_turn")}


#: the rules versions this engine replays exactly (``Rules.for_version``)
REPLAYABLE = frozenset(range(2, RULES_VERSION + 1))


def hash_ordered(turn: Turn) -> bool:
    """Whether ``turn`` was played under a rules version (below 4) where events of one moment could come out in
    an order a set's iteration chose (the hash seed): its replay compares them without regard to that order."""
    return (turn.rules_version or 1) < 4


def rules_version_note(turn: Turn) -> str | None:
    """What a re-run of ``turn`` must say when it was resolved under other rules than this engine's."""
    resolved_under = turn.rules_version or 1
    if resolved_under in REPLAYABLE:
        return None
    return (f"turn {turn.number} was resolved under rules version {resolved_under}; this engine plays "
            f"version {RULES_VERSION}, so a re-run may differ from the stored result")
