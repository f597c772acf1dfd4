"""Turn reports: board pictures (Pillow), tables (jinja2 templates in ``templates/``) and the turn mail.

Pure functions from engine results to images, text and ``EmailMessage`` objects; nothing here sends,
stores or reads the clock.
"""

from .board_image import draw_floor
from .frames import Frame, frame, frame_rgb, turn_frames
from .gif import gif_bytes
from .layout import CELL
from .mail import Attachment, Picture, build_message, content_id, message_id, turn_mail
from .players import PALETTE, Player, make_players
from .png import png_bytes
from .tables import (
    PrivateSection,
    Table,
    TurnReport,
    build_private,
    build_report,
    private_html,
    private_text,
    report_html,
    report_text,
    text_table,
)
from .turn import RenderedTurn, player_mail, render_turn

__all__ = [
    "CELL",
    "PALETTE",
    "Attachment",
    "Frame",
    "Picture",
    "Player",
    "PrivateSection",
    "RenderedTurn",
    "Table",
    "TurnReport",
    "build_message",
    "build_private",
    "build_report",
    "content_id",
    "draw_floor",
    "frame",
    "frame_rgb",
    "gif_bytes",
    "make_players",
    "message_id",
    "player_mail",
    "png_bytes",
    "private_html",
    "private_text",
    "render_turn",
    "report_html",
    "report_text",
    "text_table",
    "turn_frames",
    "turn_mail",
]
