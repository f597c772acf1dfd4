"""The board cut around one robot, for a phone: a piece of each turn picture, cut from the picture drawn once
for every player (nothing is drawn again), centred on the robot's square and kept inside the picture (at an
edge the row and column labels show).

A 24-wide course scaled to a 360 px screen leaves 14 px a square; the piece keeps the drawing's own size
(:data:`COLUMNS` x :data:`ROWS` squares, 320 x 288 px at 32 px a square), so the reader's robot and its
neighbours are seen as drawn, and the whole board is one tap away (:mod:`templates/report.html`)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from PIL import Image

from ..engine import Robot
from ..engine.geometry import Square
from .frames import Frame
from .layout import Layout
from .mail import Picture
from .png import png_bytes

#: squares across and down a piece: it fits a 360 px screen (344 px inside the mail's margins) at 32 px a square
COLUMNS, ROWS = 10, 9
#: the widest board read whole on a phone: 12 squares (every 12-wide course) scale to 25 px a square there,
#: 24 (grand-prix, factory) to 14, too small to read: those are cut
WHOLE_COLUMNS = 16

Box = tuple[int, int, int, int]
_TAG = re.compile(r"[^A-Za-z0-9]+")


def crop_box(layout: Layout, square: Square, columns: int = COLUMNS, rows: int = ROWS) -> Box | None:
    """The pixels (left, top, right, bottom) of the piece of a picture laid out by ``layout`` that has
    ``square`` in its middle, moved inside the picture's labelled board (not its status strip); None when
    the board is at most :data:`WHOLE_COLUMNS` wide (the whole picture reads well on a phone: a tall board
    scrolls down, never sideways)."""
    if layout.width <= max(WHOLE_COLUMNS, columns):
        return None
    width, height = columns * layout.cell, rows * layout.cell
    right_end = layout.ox + layout.left * 2 + layout.width * layout.cell
    bottom_end = layout.oy + layout.top + layout.height * layout.cell + layout.band[0]
    cx, cy = layout.centre(square)
    left = int(min(max(cx - width / 2, layout.ox), right_end - width))
    top = int(min(max(cy - height / 2, layout.oy + layout.title), bottom_end - height))
    left, top = max(left, layout.ox), max(top, layout.oy)
    return left, top, min(left + width, right_end), min(top + height, bottom_end)


def crop_around(image: Image.Image, layout: Layout, square: Square, columns: int = COLUMNS,
                rows: int = ROWS) -> Image.Image | None:
    """The piece of ``image`` (a turn picture laid out by ``layout``) around ``square``, in the picture's own
    mode and palette; None when the board is narrow enough to read whole (see :func:`crop_box`)."""
    box = crop_box(layout, square, columns, rows)
    return None if box is None else image.crop(box)


def robot_squares(frames: Sequence[Sequence[Robot]]) -> list[dict[str, Square]]:
    """Where each robot is in each picture of a turn (``TurnResult.frames``); a robot off the board is left out."""
    return [{r.name: r.pos for r in robots if r.pos is not None} for robots in frames]


def followed(squares: Sequence[Mapping[str, Square]], robot: str) -> list[Square | None]:
    """The square to cut each picture around for ``robot``: where it stands, else where it was last seen
    (it was destroyed: its wreck is there), else where it is first seen (it comes back later); None for
    every picture when it is never on the board."""
    seen = [place.get(robot) for place in squares]
    first = next((sq for sq in seen if sq is not None), None)
    out: list[Square | None] = []
    last = first
    for sq in seen:
        last = sq if sq is not None else last
        out.append(last)
    return out


def robot_crops(frames: Sequence[Frame], layout: Layout, squares: Sequence[Mapping[str, Square]], robot: str,
                stem: str) -> dict[str, Picture]:
    """Picture key (``start``, ``stage1``... ``end``) -> the piece of that picture around ``robot``, as an
    inline PNG of its own (key ``stage1-around-<robot>``); empty when the board is read whole or the robot is
    never on it. ``squares``: :func:`robot_squares` of the turn, one a picture."""
    out: dict[str, Picture] = {}
    for fr, sq in zip(frames, followed(squares, robot), strict=True):
        piece = None if sq is None else piece_picture(fr.image, layout, sq, fr.key, robot, stem)
        if piece is not None:
            out[fr.key] = piece
    return out


def piece_picture(image: Image.Image, layout: Layout, square: Square, key: str, robot: str,
                  stem: str) -> Picture | None:
    """The piece of picture ``key`` (``image``) around ``robot`` at ``square`` as an inline PNG of its own
    (key ``<key>-around-<robot>``, file ``<stem>-<key>-<robot>.png``); None for a board read whole."""
    piece = crop_around(image, layout, square)
    if piece is None:
        return None
    tag = _TAG.sub("-", robot).strip("-").lower() or "robot"
    return Picture(f"{key}-around-{tag}", f"{stem}-{key}-{tag}.png", png_bytes(piece))
