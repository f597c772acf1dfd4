"""The turn as an animation: the stage pictures already drawn, with in-between frames that show the robots
moving within each stage.

A stage's events are cut into *beats*, one per step of the timing table that moved or turned a robot
(the cards, then belts, pushers, gears...). In each beat every robot glides along the squares it went
through and turns through the quarter turns it made; a robot destroyed in the beat vanishes at its end.
Between two stage pictures the GIF shows a few frames of each beat, then the stage's own picture (with its
paths, shots and damage) stays on screen a while.
"""

from __future__ import annotations

import contextlib
import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image

from ..engine import Board, Event, Robot
from ..engine.geometry import parse_dir
from .board_image import frame_phase
from .frames import (
    Box,
    Frame,
    Moment,
    caption_box,
    draw_caption,
    floor_at,
    mapped_floor,
    merged,
    quantized_parts,
    robot_box,
    strip_box,
)
from .layout import CELL, Layout
from .marks import MOVES, events_of, square_of
from .players import Player
from .robots import Place, draw_robots, draw_strip, robot_places

#: how long an in-between frame shows (ms), and a stage picture (the first and last a little longer)
TWEEN_MS = 180
STAGE_MS = 1200
EDGE_MS = 1800
#: in-between frames a beat gets: the cards' beat more, since most happens there
CARD_TWEENS = 2
OTHER_TWEENS = 1
#: at most this many in-between frames a turn (beats past it show as still frames only)
MAX_TWEENS = 90


@dataclass(slots=True)
class Beat:
    """One step of a stage that moved or turned robots: each robot's squares passed and its facings."""

    step: str
    before: list[Robot]
    after: list[Robot]
    #: robot -> the squares it went through, start first (only robots that moved)
    paths: dict[str, list[tuple[int, int]]]
    #: robot -> quarter turns made (signed; +1 right)
    turns: dict[str, int]


def _turn_between(a: int, b: int, hint: int | None) -> int:
    diff = (b - a) % 4
    if diff == 3:
        return -1
    if diff == 2 and hint is not None:
        return 2 * hint
    return diff


def beats(before: Sequence[Robot], events: Sequence[Event]) -> list[Beat]:
    """The beats of one stage: ``before`` the robots as it began, ``events`` its events."""
    state = {r.name: r.copy() for r in before}
    out: list[Beat] = []
    current: Beat | None = None
    for ev in events:
        name = ev.robot
        if name is None or name not in state:
            continue
        if ev.kind not in MOVES and ev.kind not in ("face", "destroyed", "re-enter", "real"):
            continue
        if current is None or current.step != ev.step:
            if current is not None:
                current.after = [r.copy() for r in state.values()]
            current = Beat(ev.step, [r.copy() for r in state.values()], [], {}, {})
            out.append(current)
        robot = state[name]
        args = ev.args or {}
        if ev.kind in MOVES:
            to = square_of(args.get("to"))
            if robot.pos is not None and to is not None:
                current.paths.setdefault(name, [robot.pos]).append(to)
            robot.pos = to
        elif ev.kind == "face":
            try:
                new = parse_dir(args.get("dir"))
            except (ValueError, TypeError):
                continue
            card = str((ev.data or {}).get("card", ""))
            hint = -1 if card.startswith("LF") else 1 if card.startswith(("RT", "UT")) else None
            current.turns[name] = current.turns.get(name, 0) + _turn_between(robot.facing, new, hint)
            robot.facing = new
        elif ev.kind == "destroyed":
            robot.pos = None
        elif ev.kind == "re-enter":
            robot.pos = square_of(args.get("at"))
            with contextlib.suppress(ValueError, TypeError):
                robot.facing = parse_dir((ev.data or {}).get("facing", "N"))
        elif ev.kind == "real":
            robot.virtual = False
    if current is not None:
        current.after = [r.copy() for r in state.values()]
    return [b for b in out if b.paths or b.turns]


def _along(points: Sequence[tuple[float, float]], t: float) -> tuple[float, float]:
    """The point a fraction ``t`` of the way along a polyline."""
    lengths = [math.dist(a, b) for a, b in itertools.pairwise(points)]
    total = sum(lengths)
    if total == 0:
        return points[-1]
    goal = total * t
    for (a, b), length in zip(itertools.pairwise(points), lengths, strict=True):
        if goal <= length and length:
            k = goal / length
            return (a[0] + (b[0] - a[0]) * k, a[1] + (b[1] - a[1]) * k)
        goal -= length
    return points[-1]


def tween_places(lay: Layout, beat: Beat, t: float, start: dict[str, Place], end: dict[str, Place]
                 ) -> tuple[list[Robot], dict[str, Place], dict[str, float]]:
    """The robots drawn a fraction ``t`` of the way through a beat, where, and facing which way (``start`` and
    ``end``: where they stand as the beat begins and ends)."""
    places: dict[str, Place] = {}
    facing: dict[str, float] = {}
    drawn = []
    for robot in beat.before:
        a = start.get(robot.name)
        if a is None:
            continue
        b = end.get(robot.name)
        squares = beat.paths.get(robot.name, [])
        pts = [(a.cx, a.cy)] + [lay.centre(sq) for sq in squares[1:-1]]
        pts.append((b.cx, b.cy) if b else lay.centre(squares[-1]) if squares else (a.cx, a.cy))
        x, y = _along(pts, t)
        size = b.size if b and t > 0.5 else a.size
        places[robot.name] = Place(x, y, size)
        facing[robot.name] = robot.facing + beat.turns.get(robot.name, 0) * t
        drawn.append(robot)
    return drawn, places, facing


def tween_images(board: Board, beat: Beat, players: Sequence[Player], count: int, flag_total: int,
                 caption: str, cell: int = CELL, strip: Sequence[Robot] | None = None) -> list[Image.Image]:
    """``count`` in-between frames of one beat (not its end: the next beat or the stage picture shows it).

    The status strip shows ``strip`` (the robots as the stage began, as the picture before did), so only the
    moving robots differ from frame to frame: the GIF stores just that box of each frame."""
    return stage_tweens(board, [(beat, count)], players, flag_total, caption, cell,
                        beat.before if strip is None else strip)


def stage_tweens(board: Board, stage: Sequence[tuple[Beat, int]], players: Sequence[Player], flag_total: int,
                 caption: str, cell: int, strip: Sequence[Robot], moment: Moment | None = None) -> list[Image.Image]:
    """The in-between frames of a stage's beats (each with its count), the strip showing ``strip``.

    The stage's still parts (floor, strip, caption) are drawn once; each frame draws the robots on them and
    maps only the robots' boxes to the palette (all the stage's boxes in one go), then puts the still parts
    back under the robots. ``moment``: the elements drawn as they are then (else at rest)."""
    fl = floor_at(board, cell, len(players), *(moment or (None, None)))
    lay = fl.layout
    order = {p.robot: i for i, p in enumerate(players)}
    work = fl.image.copy()
    draw_strip(work, lay, strip, players, flag_total)
    draw_caption(work, lay, caption)
    still = merged([strip_box(lay), caption_box(lay, caption)], work.size)
    parts = [work.crop(box) for box in still]
    boxes: list[list[Box]] = []
    for beat, count in stage:
        start = robot_places(lay, beat.before, order)
        end = robot_places(lay, beat.after, order)
        for i in range(1, count + 1):
            drawn, places, facing = tween_places(lay, beat, i / (count + 1), start, end)
            draw_robots(work, lay, drawn, players, places, facing)
            boxes.append(merged([robot_box(pl.cx, pl.cy, pl.size) for pl in places.values()], work.size))
            for box in boxes[-1]:
                parts.append(work.crop(box))
            for box in boxes[-1]:
                work.paste(fl.image.crop(box), box)
                for part, at in zip(parts, still, strict=False):
                    if box[0] < at[2] and at[0] < box[2] and box[1] < at[3] and at[1] < box[3]:
                        work.paste(part, at)  # the strip or the caption, as they were
    mapped = iter(quantized_parts(board, parts, players, cell))
    still_frame = mapped_floor(board, players, cell, at=moment).copy()
    for box in still:
        still_frame.paste(next(mapped), box)
    out = []
    for frame_boxes in boxes:
        img = still_frame.copy()
        for box in frame_boxes:
            img.paste(next(mapped), box)
        out.append(img)
    return out


def animation(board: Board, frames: Sequence[Frame], robots: Sequence[Sequence[Robot]], events: Sequence[Event],
              players: Sequence[Player], title: str = "", cell: int = CELL, moments: Sequence[Moment] | None = None
              ) -> tuple[list[Image.Image], list[int]]:
    """The GIF's frames and durations: each stage picture (``frames``, already drawn), and before it the
    in-between frames of its stage's beats. ``robots`` are ``TurnResult.frames``; ``moments`` (one a picture):
    the elements in a stage's in-between frames are as that stage's register phase and the state before it."""
    images: list[Image.Image] = []
    durations: list[int] = []
    budget = MAX_TWEENS
    for i, fr in enumerate(frames):
        if i:
            stage: list[tuple[Beat, int]] = []
            for beat in beats(robots[i - 1], events_of(events, frame_phase(fr.key))):
                count = min(CARD_TWEENS if beat.step == "robots" else OTHER_TWEENS, budget)
                if count <= 0:
                    break
                budget -= count
                stage.append((beat, count))
            if stage:
                name = fr.caption.split(": ")[-1].replace("after ", "")
                text = f"{title}: {name}" if title else name
                at = (moments[i][0], moments[i - 1][1]) if moments else None
                tweens = stage_tweens(board, stage, players, board.flag_count, text, cell, robots[i - 1], at)
                images += tweens
                durations += [TWEEN_MS] * len(tweens)
        images.append(fr.image)
        durations.append(EDGE_MS if i in (0, len(frames) - 1) else STAGE_MS)
    return images, durations
