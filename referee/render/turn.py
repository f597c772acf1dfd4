"""One resolved turn rendered once for everybody: the report, the pictures (PNG) and the animation (GIF)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from email.message import EmailMessage

from ..engine import Board, Card, Robot, TurnResult
from .board_image import CELL, Frame, gif_bytes, gif_durations, png_bytes, turn_frames
from .mail import Attachment, Picture, turn_mail
from .players import Player
from .tables import TurnReport, build_private, build_report


@dataclass(slots=True)
class RenderedTurn:
    report: TurnReport
    frames: list[Frame]
    pictures: list[Picture]
    gif: Attachment
    flag_total: int


def file_stem(game: str, turn: int) -> str:
    return f"{game}-turn{turn}".replace("/", "-").replace(" ", "-")


def render_turn(board: Board, result: TurnResult, players: Sequence[Player], game: str, turn: int,
                cell: int = CELL) -> RenderedTurn:
    """Everything every player's mail shares: drawn once per turn."""
    report = build_report(board, result, players, game, turn)
    frames = turn_frames(board, result.frames, players, result.phases_run, result.end_of_turn,
                         title=f"{game} turn {turn}", cell=cell)
    stem = file_stem(game, turn)
    pictures = [Picture(f.key, f"{stem}-{f.key}.png", png_bytes(f.image)) for f in frames]
    gif = Attachment(f"{stem}.gif", gif_bytes([f.image for f in frames], gif_durations(len(frames))), "image", "gif")
    return RenderedTurn(report, frames, pictures, gif, board.flag_count)


def player_mail(rendered: RenderedTurn, player: Player, *, sender: str, recipient: str, subject: str, domain: str,
                hand: Sequence[Card] = (), locked: Mapping[int, Card] | None = None, order_template: str = "",
                robot: Robot | None = None, deadline: str | None = None,
                headers: Mapping[str, str] | None = None) -> EmailMessage:
    """The turn mail of one player: the shared report and pictures, and their own next hand."""
    private = build_private(player, rendered.report.turn + 1, hand, locked or {}, order_template, robot,
                            rendered.flag_total, deadline)
    return turn_mail(report=rendered.report, pictures=rendered.pictures, gif=rendered.gif, sender=sender,
                     recipient=recipient, subject=subject, domain=domain, private=private, headers=headers)
