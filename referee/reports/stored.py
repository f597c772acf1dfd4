"""A stored turn back as the engine's result, and the players as the report shows them.

The report of a turn is drawn from what the store holds for it (``events``, ``frames``, ``played``...),
not from a new engine run, so a mail or an archive page always shows the result that was recorded.
``Turn.events`` is read in every form it was ever stored in (:mod:`referee.engine.event_codec`): typed,
or the words of the turns stored before events were typed.
"""

from __future__ import annotations

from ..engine import Board, Event, Robot, TurnResult
from ..engine.decisions import decisions_of
from ..engine.event_codec import decode_events
from ..engine.snapshot import cards_from_list, robot_from_dict
from ..render import Player, make_players
from ..store.models import Game, Turn
from ..store.queries import load_course


def stored_events(turn: Turn) -> list[Event]:
    """The typed events of a stored turn, whichever form they were stored in."""
    return decode_events(turn.events)


def stored_turn_result(turn: Turn) -> TurnResult:
    """The engine's result of a resolved turn, rebuilt from its columns."""
    if turn.status != "resolved" or turn.events is None or turn.frames is None:
        raise ValueError(f"turn {turn.number} is not resolved")
    events = stored_events(turn)
    return TurnResult(
        robots=[robot_from_dict(d) for d in turn.state_after or []],
        events=events,
        winner=turn.winner,
        phases_run=int(turn.phases_run or 0),
        end_of_turn=bool(turn.end_of_turn),
        played={name: cards_from_list(cards) for name, cards in (turn.played or {}).items()},
        frames=[[robot_from_dict(d) for d in frame] for frame in turn.frames],
        decisions=decisions_of(events),
    )


def robots_before(turn: Turn) -> list[Robot]:
    return [robot_from_dict(d) for d in turn.state_before]


def report_players(game: Game, turn: Turn) -> list[Player]:
    """The columns of the report: every robot of the turn in seat order, in its player's colour."""
    names = [d["name"] for d in turn.state_before]
    colours = {p.robot: p.colour for p in game.players if p.colour}
    return make_players(names, colours=colours)


def course_board(game: Game) -> Board:
    return load_course(game.course)
