"""A resolved turn (:class:`TurnResult`) and the short names of the steps its events carry (:func:`label`)."""

from __future__ import annotations

from dataclasses import dataclass, field, fields

from .cards import Card
from .decisions import Decision
from .events import Event, LogEntry, made_events
from .state import BoardState, Robot, RobotRecord, restore_robots

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

#: the fields :func:`engine_result` sets (every field of :class:`TurnResult`; ``events`` and ``frames`` as kept)
_FIELDS = frozenset(f.name for f in fields(TurnResult))


def engine_result(robots: list[Robot], log: list[LogEntry], winner: str | None, phases_run: int, end_of_turn: bool,
                  played: dict[str, list[Card | None]], frame_records: list[tuple[RobotRecord, ...]],
                  decisions: list[Decision], board_state: BoardState, option_deck: list[str] | None) -> TurnResult:
    """The :class:`TurnResult` of a turn the engine resolved (its events and frames made when first read), set
    field by field without the dataclass's ``__init__`` (every turn makes one)."""
    result = object.__new__(TurnResult)
    result.__dict__.update(robots=robots, _events=[], winner=winner, phases_run=phases_run, end_of_turn=end_of_turn,
                           played=played, _frames=[], decisions=decisions, board_state=board_state,
                           option_deck=option_deck, log=log, frame_records=frame_records)
    return result


assert {"robots", "events", "winner", "phases_run", "end_of_turn", "played", "frames", "decisions", "board_state",
        "option_deck", "log", "frame_records"} == _FIELDS, "engine_result must set every field"
