"""A resolved turn drawn from what the store holds, the same for the turn mails and the archive pages: the
report, the pictures, the key and the GIF, with the programs the referee filled in marked on their cards
and the line about late players (:mod:`.fills`)."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.orm import Session

from ..engine import TurnResult
from ..engine.state import BoardState
from ..render import Player, RenderedTurn, render_turn
from ..render.story import robot_story
from ..store.models import Game, Turn
from .fills import TOLD, filled_robots, late_text, mark_fills
from .stored import course_board, report_players, stored_turn_result


@dataclass(slots=True)
class DrawnTurn:
    rendered: RenderedTurn
    #: the engine's result as stored
    result: TurnResult
    #: the robots' columns, in seat order
    columns: list[Player]
    #: robot -> the mark of the program the referee filled in for it
    fills: dict[str, str]


def draw_stored_turn(s: Session, game: Game, turn: Turn) -> DrawnTurn:
    """Draw resolved ``turn`` of ``game`` once for everybody, fills marked and late players named."""
    result = stored_turn_result(turn)
    columns = report_players(game, turn)
    board = course_board(game)
    rendered = render_turn(board, result, columns, game.code, turn.number,
                           board_before=BoardState.from_dict(turn.board_before))
    fills = filled_robots(s, game, turn)
    mark_fills(rendered.report, fills)
    for robot in fills:  # the late player's story says who played for them
        words = TOLD.get(game.missing_orders, "the referee filled in your program: you sent none")
        rendered.stories[robot] = robot_story(board, result, robot, turn.number, rendered.report.label_of, words)
    rendered.report.late = late_text(game, turn, [p.robot for p in game.players if p.robot in fills])
    return DrawnTurn(rendered, result, columns, fills)
