"""The marks of a robot's statuses in the pictures: each status players are shown declares its mark with its
wording (``shown.status(..., mark="Z")``, in the module that gives it), drawn as a white chip with the mark's
letters on the robot, and listed in the key of a course where it can occur (:func:`keyed_marks`)."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from PIL import ImageDraw

from ..engine import Board, shown
from .colours import INK, WHITE
from .fonts import font, stamp

#: the most status chips drawn on one robot (the last says ``+n`` when it carries more): they climb its right
#: side no higher than the HP badge of a stage picture
MOST_CHIPS = 2


def status_marks(statuses: Collection[str]) -> tuple[str, ...]:
    """The marks of the statuses a robot carries that players are shown, as their modules declare them."""
    return tuple(s.mark for s in shown.marked(statuses))


def draw_status_chips(d: ImageDraw.ImageDraw, cx: float, bottom: float, size: float, marks: Sequence[str]) -> None:
    """A robot's status marks as white chips with their letters, centred on x ``cx``, the first with its
    bottom at ``bottom`` and the others above it."""
    if len(marks) > MOST_CHIPS:
        marks = [*marks[:MOST_CHIPS - 1], f"+{len(marks) - MOST_CHIPS + 1}"]
    h = max(8.0, size * 0.3)
    fsize = max(7, round(h * 0.8))
    f = font(fsize, True)
    for i, mark in enumerate(marks):
        w = max(h, f.getlength(mark) + 4)
        y1 = bottom - i * (h + 1)
        d.rounded_rectangle([cx - w / 2, y1 - h, cx + w / 2, y1], radius=2, fill=WHITE, outline=INK)
        stamp(d, (cx, y1 - h / 2), mark, fsize, True, INK)


def keyed_marks(board: Board) -> list[tuple[str, str]]:
    """(mark, words) of every status a robot may carry on this course (given by an element on it, or by an option
    card), in the order declared: what the key lists."""
    return [(s.mark, s.words) for s in shown.keyed(board.layers)]
