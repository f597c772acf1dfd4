"""One resolved turn rendered once for everybody: the report, the pictures (PNG), the key to them and the
animation (GIF).

Everything here is shared by every player's mail, so it is drawn once per turn: the floor of the course is
kept between turns (see :func:`.frames.floor`), the key is kept with it, and the GIF is made of the
stage pictures already drawn plus in-between frames.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from email.message import EmailMessage

from ..engine import Board, Card, Robot, TurnResult
from ..engine.geometry import Square
from ..engine.state import BoardState
from .crops import robot_crops, robot_squares
from .frames import Frame, moments, turn_frames
from .gif import gif_bytes
from .layout import CELL, Layout
from .legend import legend_png
from .mail import Attachment, Picture, turn_mail
from .motion import animation
from .players import Player
from .png import png_bytes
from .story import stories
from .tables import TurnReport, build_private, build_report


@dataclass(slots=True)
class RenderedTurn:
    report: TurnReport
    frames: list[Frame]
    pictures: list[Picture]
    gif: Attachment
    flag_total: int
    #: the key to the pictures (the course's elements and the marks)
    legend: Picture | None = None
    #: robot -> its own story of the turn (:mod:`.story`), for the top of its player's mail
    stories: dict[str, list[str]] = field(default_factory=dict)
    #: how the pictures are laid out, and where each robot is in each (for :meth:`crops`)
    layout: Layout | None = None
    squares: list[dict[str, Square]] = field(default_factory=list)
    #: robot -> its crops, cut once
    _crops: dict[str, dict[str, Picture]] = field(default_factory=dict)

    def crops(self, robot: str) -> dict[str, Picture]:
        """Picture key -> that picture cut around ``robot`` (:mod:`.crops`; empty for a board read whole)."""
        if self.layout is None or not self.squares:
            return {}
        if robot not in self._crops:
            stem = file_stem(self.report.game, self.report.turn)
            self._crops[robot] = robot_crops(self.frames, self.layout, self.squares, robot, stem)
        return self._crops[robot]


def file_stem(game: str, turn: int) -> str:
    return f"{game}-turn{turn}".replace("/", "-").replace(" ", "-")


def legend_picture(board: Board, stem: str, cell: int = CELL) -> Picture:
    """The key as an inline picture (its PNG made once per board and cell size)."""
    return Picture("legend", f"{stem}-key.png", legend_png(board, cell))


def render_turn(board: Board, result: TurnResult, players: Sequence[Player], game: str, turn: int,
                cell: int = CELL, board_before: BoardState | None = None) -> RenderedTurn:
    """Everything every player's mail shares: drawn once per turn. ``board_before``: what the board's elements
    remembered as the turn began (pistons, barricades...), so each picture shows them as they were then."""
    report = build_report(board, result, players, game, turn)
    title = f"{game} turn {turn}"
    at = moments(board, result.phases_run, result.end_of_turn, result.events, board_before)
    frames = turn_frames(board, result.frames, players, result.phases_run, result.end_of_turn, title=title,
                         cell=cell, events=result.events, moments=at)
    stem = file_stem(game, turn)
    pictures = [Picture(f.key, f"{stem}-{f.key}.png", png_bytes(f.image)) for f in frames]
    images, durations = animation(board, frames, result.frames, result.events, players, title, cell, at)
    gif = Attachment(f"{stem}.gif", gif_bytes(images, durations), "image", "gif")
    told = stories(board, result, turn, report.label_of)
    return RenderedTurn(report, frames, pictures, gif, board.flag_count, legend_picture(board, stem, cell), told,
                        Layout(board.width, board.height, cell), robot_squares(result.frames))


def player_mail(rendered: RenderedTurn, player: Player, *, sender: str, recipient: str, subject: str, domain: str,
                hand: Sequence[Card] = (), locked: Mapping[int, Card] | None = None, order_template: str = "",
                robot: Robot | None = None, deadline: str | None = None,
                headers: Mapping[str, str] | None = None,
                new_options: Sequence[tuple[str, str, list[str]]] = ()) -> EmailMessage:
    """The turn mail of one player: the shared report and pictures, and their own next hand. ``new_options``:
    (card, what it does, its order lines) of each option card the robot got in the turn."""
    private = build_private(player, rendered.report.turn + 1, hand, locked or {}, order_template, robot,
                            rendered.flag_total, deadline)
    private.story = list(rendered.stories.get(player.robot, []))
    private.new_options = list(new_options)
    return turn_mail(report=rendered.report, pictures=rendered.pictures, gif=rendered.gif, sender=sender,
                     recipient=recipient, subject=subject, domain=domain, private=private, headers=headers,
                     legend=rendered.legend, crops=rendered.crops(player.robot))
