"""One robot's path through a whole turn in one picture: the PREVIEW answer's picture.

The turn pictures (:mod:`.frames`) draw one stage each; a preview draws the whole turn of one robot at
once, with the same marks (:func:`.marks.stage_marks` over all the turn's events, then only what concerns
that robot) on the same floor, by the same painters. Pure: robots and events in, an image out.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from PIL import Image

from ..engine import Board, Event, Robot
from .frames import frame
from .layout import CELL
from .marks import Marks, stage_marks
from .players import Player


def path_marks(before: Sequence[Robot], events: Iterable[Event], name: str) -> Marks:
    """The marks of robot ``name`` over the whole turn: its moves, its wreck, the shots that hit it or
    that it fired, and the HP it lost or won back. ``before``: the robots as the turn began."""
    every = stage_marks(before, events)
    return Marks(segments=[m for m in every.segments if m.robot == name],
                 shots=[m for m in every.shots if name in (m.robot, m.target)],
                 badges=[m for m in every.badges if m.robot == name],
                 wrecks=[m for m in every.wrecks if m.robot == name],
                 glares=[m for m in every.glares if m.target == name])


def path_image(board: Board, after: Sequence[Robot], players: Sequence[Player], marks: Marks, caption: str = "",
               cell: int = CELL) -> Image.Image:
    """The board with the robots where ``after`` has them and ``marks`` drawn (a palette image, no status
    strip: the answer's text says where the robot ends)."""
    return frame(board, after, players, caption, cell, marks, strip=False)
