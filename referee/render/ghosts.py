"""Ghosts in the pictures: where each ghost is at each picture of a turn, and the marker it is drawn as.

A ghost is not a robot (:mod:`referee.engine.elements.ghosts`): it lives in the board state (table ``ghost``:
parent robot -> ``{"at": "r5c3", "facing": "N", ...}``) and its events say where it rises, drifts, turns and
fades. The pictures read the table the turn began with and replay those events up to each picture
(:func:`ghost_tables`), so a stored turn draws its ghosts as a fresh one does. A ghost is drawn on its own square
as a pale sheet outlined in its parent robot's colour with the parent's letters, pointing where it faces: never
like a robot, nor on its parent's square; its glare that hit a robot from afar as a dashed line in that colour
(:func:`draw_glares`).
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import ImageDraw

from ..engine import Event
from ..engine.geometry import Square, parse_dir, parse_square
from ..engine.state import BoardState
from .colours import HIT, INK, RGB, WHITE
from .fonts import stamp
from .layout import Layout, turned
from .marks import Shot
from .robots import dashed_line, mix

#: the board state's table of ghosts
GHOST = "ghost"
#: the events of a ghost: where it rises (``at``), drifts to (``to``), which way it turns (``dir``), that it fades
RISES, MOVES, TURNS, GONE = "ghost rises", "ghost moves", "ghost turns", "ghost gone"
KINDS = frozenset({RISES, MOVES, TURNS, GONE})
#: a ghost's table: parent robot -> its entry (``at``, ``facing``)
Table = dict[str, dict[str, Any]]


@dataclass(frozen=True, slots=True)
class Ghost:
    parent: str
    at: Square
    facing: int


def ghost_of(ev: Event) -> str | None:
    """The parent robot whose ghost an event is about (None: not a ghost's event). An event logged as the ghost's
    names no robot and gives the parent in its data (``ghost``); turns logged before that (rules version 4 and
    earlier) logged it under the parent robot."""
    if ev.kind not in KINDS:
        return None
    parent = (ev.data or {}).get(GHOST)
    return str(parent) if parent else ev.robot


def replay(table: Table, ev: Event) -> None:
    """Apply one event to a ghost table."""
    parent = ghost_of(ev)
    if parent is None:
        return
    args = ev.args or {}
    if ev.kind == GONE:
        table.pop(parent, None)
    elif ev.kind == RISES:
        table[parent] = {"at": args.get("at"), "facing": table.get(parent, {}).get("facing", "N")}
    elif ev.kind == MOVES and parent in table:
        table[parent]["at"] = args.get("to")
    elif ev.kind == TURNS and parent in table:
        table[parent]["facing"] = args.get("dir")


_ORDER = {"start": 0, "end": 6}


def _rank(phase: object) -> int:
    return phase if isinstance(phase, int) else _ORDER.get(str(phase), 7)


def ghost_tables(before: BoardState | None, events: Sequence[Event], phases: Sequence[object]) -> list[Table]:
    """The ghost table at each of ``phases`` (``start``, 1..5, ``end``, in order): the one the turn began with
    (``before``), the ghosts' events up to the end of that phase replayed."""
    table: Table = {k: dict(v) for k, v in ((before.values.get(GHOST) if before else None) or {}).items()}
    pending = [ev for ev in events if ev.kind in KINDS]
    out, k = [], 0
    for phase in phases:
        while k < len(pending) and _rank(pending[k].phase) <= _rank(phase):
            replay(table, pending[k])
            k += 1
        out.append({p: dict(v) for p, v in table.items()})
    return out


def with_ghosts(state: BoardState, table: Table) -> BoardState:
    """``state`` with its ghost table as ``table`` (a copy: a state may be shared by several pictures)."""
    got = state.copy()
    got.values[GHOST] = {p: dict(v) for p, v in table.items()}
    return got


def ghosts_in(state: BoardState | None) -> list[Ghost]:
    """The ghosts of a board state, in their parents' order, each where it is (one not on a square left out)."""
    out = []
    for parent, entry in sorted(((state.values.get(GHOST) if state else None) or {}).items()):
        with contextlib.suppress(ValueError, TypeError):
            out.append(Ghost(parent, parse_square(entry.get("at")), parse_dir(entry.get("facing", "N"))))
    return out


def draw_ghost(d: ImageDraw.ImageDraw, cx: float, cy: float, size: float, colour: RGB, facing: int,
               label: str) -> None:
    """A ghost in a ``size`` square centred on (cx, cy): a pale sheet (a dome with a ragged hem) outlined in its
    parent's colour, the parent's letters on it and a small arrowhead at its side where it faces."""
    w, top, hem = size * 0.34, -size * 0.38, size * 0.36
    body = [(-w + 2 * w * i / 16, top + w - w * (1 - ((i - 8) / 8) ** 2) ** 0.5) for i in range(17)]
    teeth = 4
    for i in range(teeth * 2 + 1):
        x = w - 2 * w * i / (teeth * 2)
        body.append((x, hem - (size * 0.1 if i % 2 else 0)))
    pts = [(cx + x, cy + y) for x, y in body]
    pale = mix(colour, WHITE, 0.72)
    d.polygon(pts, fill=pale)
    d.line([*pts, pts[0]], fill=colour, width=max(2, round(size / 16)), joint="curve")
    tip = [(-size * 0.15, -size * 0.41), (0, -size * 0.54), (size * 0.15, -size * 0.41)]
    d.polygon(turned(tip, facing, cx, cy), fill=colour)
    if label and size >= 18:
        stamp(d, (cx, cy + size * 0.02), label, max(7, round(size * (0.34 if len(label) == 1 else 0.26))), True,
              mix(colour, INK, 0.25))


def draw_ghosts(d: ImageDraw.ImageDraw, lay: Layout, ghosts: Sequence[Ghost],
                looks: Mapping[str, tuple[RGB, str]]) -> None:
    """Each ghost on its own square, in its parent's colour and letters (``looks``: parent -> both)."""
    for ghost in ghosts:
        colour, initials = looks.get(ghost.parent, ((128, 128, 128), ghost.parent[:1].upper()))
        cx, cy = lay.centre(ghost.at)
        draw_ghost(d, cx, cy, lay.cell, colour, ghost.facing, initials)


def draw_glares(d: ImageDraw.ImageDraw, lay: Layout, glares: Sequence[Shot],
                looks: Mapping[str, tuple[RGB, str]]) -> None:
    """A ghost's glare that hit a robot: a dashed line in its parent's colour from the side of the ghost's square
    along its row or column to the robot hit, and a burst there."""
    s = lay.cell
    for glare in glares:
        colour, _ = looks.get(glare.robot, ((128, 128, 128), ""))
        (ax, ay), pb = lay.centre(glare.start), lay.centre(glare.end)
        length = math.dist((ax, ay), pb)
        if length == 0:
            continue
        pa = (ax + (pb[0] - ax) / length * s * 0.5, ay + (pb[1] - ay) / length * s * 0.5)
        dashed_line(d, pa, pb, colour, max(3, s // 10), s * 0.2, s * 0.14)
        r = s * 0.16
        d.ellipse([pb[0] - r, pb[1] - r, pb[0] + r, pb[1] + r], fill=HIT, outline=colour, width=2)
