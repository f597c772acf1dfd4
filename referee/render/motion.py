"""The turn as an animation: the stage pictures already drawn, with in-between frames that show the robots
moving within each stage.

A stage's events are cut into *beats*, in the order the rules play them: one per card, in priority order,
then one per step of the timing table that moved or turned a robot (belts, pushers, gears...). In a card's
beat its robot goes square by square and a robot it pushes stands still until the pusher reaches it (then
moves with it); in an element's beat every robot it moved glides at once. Robots turn through the quarter
turns they made; a robot destroyed in the beat vanishes at its end.
Between two stage pictures the GIF shows a few frames of each beat, then the stage's own picture (with its
paths, shots and damage) stays on screen a while.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Iterator, Sequence

from PIL import Image, ImageDraw

from ..engine import Board, Event, Robot
from . import sprites
from .beats import Beat, beats, ghost_parent
from .board_image import frame_phase
from .colours import RGB
from .frames import (
    Box,
    Frame,
    Moment,
    caption_box,
    draw_caption,
    floor_at,
    frame_palette,
    mapped_floor,
    merged,
    quantized_parts,
    robot_box,
    strip_box,
)
from .ghosts import draw_ghost, ghosts_in
from .layout import CELL, Layout
from .marks import events_of
from .players import Player
from .robots import Look, Place, draw_robot, draw_robots, draw_strip, robot_looks, robot_places
from .sprites import Sprite, paste_sprites

#: how long an in-between frame shows (ms), and a stage picture (the first and last a little longer)
TWEEN_MS = 180
STAGE_MS = 1200
EDGE_MS = 1800
#: in-between frames a beat gets: a card's as many as the squares it moves, up to this; an element step's one
CARD_TWEENS = 3
OTHER_TWEENS = 1
#: at most this many in-between frames a turn (beats past it show as still frames only)
MAX_TWEENS = 90


def _along(points: Sequence[tuple[float, float]], t: float,
           times: Sequence[float] | None = None) -> tuple[float, float]:
    """The point a fraction ``t`` of the way along a polyline: evenly by length, or at ``times`` (the fraction
    at which each point is reached)."""
    if times is not None and len(times) == len(points):
        if t <= times[0]:
            return points[0]
        for (a, b), (ta, tb) in zip(itertools.pairwise(points), itertools.pairwise(times), strict=True):
            if t <= tb:
                k = (t - ta) / (tb - ta) if tb > ta else 1.0
                return (a[0] + (b[0] - a[0]) * k, a[1] + (b[1] - a[1]) * k)
        return points[-1]
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
        x, y = _along(pts, t, beat.times.get(robot.name))
        size = b.size if b and t > 0.5 else a.size
        places[robot.name] = Place(x, y, size)
        facing[robot.name] = robot.facing + beat.turns.get(robot.name, 0) * t
        drawn.append(robot)
    return drawn, places, facing


def _places(lay: Layout, robots: Sequence[Robot], order: dict[str, int]) -> dict[str, Place]:
    """Where the robots of a beat stand (:func:`.robots.robot_places`) and the ghosts among them, each on its square
    (a ghost shares its square with no robot's fan)."""
    out = robot_places(lay, [r for r in robots if ghost_parent(r.name) is None], order)
    for r in robots:
        if r.pos is not None and ghost_parent(r.name) is not None:
            out[r.name] = Place(*lay.centre(r.pos), lay.cell)
    return out


def _look(looks: dict[str, tuple[RGB, str]], parent: str, facing: int) -> tuple[RGB, int, str]:
    colour, initials = looks.get(parent, ((128, 128, 128), parent[:1].upper()))
    return colour, facing, initials


def tween_images(board: Board, beat: Beat, players: Sequence[Player], count: int, flag_total: int,
                 caption: str, cell: int = CELL, strip: Sequence[Robot] | None = None) -> list[Image.Image]:
    """``count`` in-between frames of one beat (not its end: the next beat or the stage picture shows it).

    The status strip shows ``strip`` (the robots as the stage began, as the picture before did), so only the
    moving robots differ from frame to frame: the GIF stores just that box of each frame."""
    return stage_tweens(board, [(beat, count)], players, flag_total, caption, cell,
                        beat.before if strip is None else strip)


def stage_tweens(board: Board, stage: Sequence[tuple[Beat, int]], players: Sequence[Player], flag_total: int,
                 caption: str, cell: int, strip: Sequence[Robot], moment: Moment | None = None) -> list[Image.Image]:
    """The in-between frames of a stage's beats (each with its count), the strip showing ``strip``
    (:func:`stage_frames`)."""
    return list(stage_frames(board, stage, players, flag_total, caption, cell, strip, moment))


class Buffers:
    """Two images the in-between frames are drawn in by turns (:func:`animated` with ``reuse``): a frame is
    good until the next but one is asked for, and no new image is made (and filled by the system) for each."""

    def __init__(self) -> None:
        self.images: list[Image.Image | None] = [None, None]
        self.turn = 0

    def take(self, like: Image.Image) -> Image.Image:
        """The next image, a copy of ``like`` (the frames of a turn share one palette and size)."""
        self.turn ^= 1
        img = self.images[self.turn]
        if img is None or img.size != like.size or img.mode != like.mode:
            img = self.images[self.turn] = like.copy()
        else:
            img.paste(like, (0, 0))
        return img


def stage_frames(board: Board, stage: Sequence[tuple[Beat, int]], players: Sequence[Player], flag_total: int,
                 caption: str, cell: int, strip: Sequence[Robot], moment: Moment | None = None,
                 buffers: Buffers | None = None) -> Iterator[Image.Image]:
    """The in-between frames of a stage's beats (each with its count), the strip showing ``strip``, one at a
    time (the GIF is written as they come: a turn's frames are not all kept at once); ``buffers``: drawn in
    those (each frame good until the next but one).

    The stage's still parts (floor, strip, caption) are drawn and mapped to the palette once. In each frame, a
    robot whose look at its place is kept, or shows again in the stage, is pasted as its sprite mapped to the
    palette (:mod:`.sprites`); the others (a robot on its way, at a place it passes once) are drawn on the still
    parts with the robots their boxes meet, in order, and their boxes mapped to the palette (all the stage's
    boxes in one go) and pasted last; the still parts are then put back under them. A stage with ghosts draws
    every robot so. ``moment``: the elements drawn as they are then (else at rest)."""
    fl = floor_at(board, cell, len(players), *(moment or (None, None)))
    lay = fl.layout
    order = {p.robot: i for i, p in enumerate(players)}
    work = fl.image.copy()
    draw_strip(work, lay, strip, players, flag_total)
    draw_caption(work, lay, caption)
    still = merged([strip_box(lay), caption_box(lay, caption)], work.size)
    parts = [work.crop(box) for box in still]
    frames = []
    for beat, count in stage:
        start, end = _places(lay, beat.before, order), _places(lay, beat.after, order)
        frames += [tween_places(lay, beat, i / (count + 1), start, end) for i in range(1, count + 1)]
    if not sprites.ENABLED or any(ghost_parent(r.name) is not None for drawn, _, _ in frames for r in drawn):
        yield from _drawn_tweens(board, lay, fl.image, work, still, parts, frames, players, cell, moment)
        return
    looks = [[(pl, look, sprites.key_of(pl.cx, pl.cy, look))
              for pl, look in robot_looks(lay, drawn, players, places, facing)] for drawn, places, facing in frames]
    seen = Counter(key for frame in looks for _, _, key in frame)
    plans: list[tuple[Placed, list[Box]]] = []
    for frame in looks:
        placed: Placed = []
        direct: list[tuple[Place, Look]] = []
        for pl, look, key in frame:
            got = sprites.sprite(pl.cx, pl.cy, look, make=seen[key] > 1, key=key)
            if got is None:
                direct.append((pl, look))
            else:
                placed.append((pl.cx, pl.cy, got))
        boxes = merged([robot_box(pl.cx, pl.cy, pl.size) for pl, _ in direct], work.size)
        if boxes:
            _draw_over(work, fl.image, still, parts, [(pl, look) for pl, look, _ in frame], boxes)
        plans.append((placed, boxes))
    mapped = iter(quantized_parts(board, parts, players, cell))
    still_frame = mapped_floor(board, players, cell, at=moment).copy()
    for box in still:
        still_frame.paste(next(mapped), box)
    palette = frame_palette(board, players, cell)
    for placed, boxes in plans:
        img = buffers.take(still_frame) if buffers else still_frame.copy()
        paste_sprites(img, palette, placed)
        for box in boxes:
            img.paste(next(mapped), box)
        yield img


Placed = list[tuple[float, float, Sprite]]


def _meets(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _draw_over(work: Image.Image, floor_image: Image.Image, still: list[Box], parts: list[Image.Image],
               frame: Sequence[tuple[Place, Look]], boxes: list[Box]) -> None:
    """The robots of ``frame`` whose boxes meet ``boxes`` drawn on ``work`` in order, ``boxes`` cut from it
    (appended to ``parts``), and ``work`` put back as it was (the floor and the still parts)."""
    d = ImageDraw.Draw(work)
    drawn = []
    for pl, look in frame:
        box = robot_box(pl.cx, pl.cy, pl.size)
        if any(_meets(box, b) for b in boxes):
            draw_robot(d, pl.cx, pl.cy, *look)
            drawn.append(box)
    parts += [work.crop(box) for box in boxes]
    for box in merged(drawn, work.size):
        work.paste(floor_image.crop(box), box)
        for part, at in zip(parts, still, strict=False):
            if _meets(box, at):
                work.paste(part, at)  # the strip or the caption, as they were


def _drawn_tweens(board: Board, lay: Layout, floor_image: Image.Image, work: Image.Image, still: list[Box],
                  parts: list[Image.Image], frames: Sequence[tuple[list[Robot], dict[str, Place], dict[str, float]]],
                  players: Sequence[Player], cell: int, moment: Moment | None) -> Iterator[Image.Image]:
    """:func:`stage_tweens` by drawing each frame's robots (and ghosts) on ``work``, the still parts drawn."""
    boxes: list[list[Box]] = []
    looks = {p.robot: (p.rgb, p.initials) for p in players}
    for drawn, places, facing in frames:
        d = ImageDraw.Draw(work)
        for robot in drawn:  # the ghosts under the robots
            parent = ghost_parent(robot.name)
            if parent is not None:
                pl = places[robot.name]
                draw_ghost(d, pl.cx, pl.cy, pl.size, *_look(looks, parent, round(facing[robot.name]) % 4))
        drawn = [r for r in drawn if ghost_parent(r.name) is None]
        draw_robots(work, lay, drawn, players, places, facing)
        boxes.append(merged([robot_box(pl.cx, pl.cy, pl.size) for pl in places.values()], work.size))
        for box in boxes[-1]:
            parts.append(work.crop(box))
        for box in boxes[-1]:
            work.paste(floor_image.crop(box), box)
            for part, at in zip(parts, still, strict=False):
                if box[0] < at[2] and at[0] < box[2] and box[1] < at[3] and at[1] < box[3]:
                    work.paste(part, at)  # the strip or the caption, as they were
    mapped = iter(quantized_parts(board, parts, players, cell))
    still_frame = mapped_floor(board, players, cell, at=moment).copy()
    for box in still:
        still_frame.paste(next(mapped), box)
    for frame_boxes in boxes:
        img = still_frame.copy()
        for box in frame_boxes:
            img.paste(next(mapped), box)
        yield img


def tween_count(beat: Beat) -> int:
    """In-between frames a beat gets: a card one a square it moves (at least one, at most :data:`CARD_TWEENS`),
    so a push shows after the pusher arrives; a step of the elements :data:`OTHER_TWEENS`."""
    if beat.card is None:
        return OTHER_TWEENS
    return min(CARD_TWEENS, max(1, len(beat.paths.get(beat.card, ())) - 1))


def plan(stages: Sequence[Sequence[Beat]], budget: int = MAX_TWEENS) -> list[list[tuple[Beat, int]]]:
    """Each stage's beats with their in-between frames, within ``budget`` for the turn: a beat one frame each
    when the counts would pass it, and the beats past it still (no frames)."""
    counts = [[tween_count(b) for b in stage] for stage in stages]
    if sum(map(sum, counts)) > budget:
        counts = [[1] * len(stage) for stage in stages]
    out = []
    for stage, got in zip(stages, counts, strict=True):
        kept = []
        for beat, count in zip(stage, got, strict=True):
            count = min(count, budget)
            if count <= 0:
                break
            budget -= count
            kept.append((beat, count))
        out.append(kept)
    return out


def animation(board: Board, frames: Sequence[Frame], robots: Sequence[Sequence[Robot]], events: Sequence[Event],
              players: Sequence[Player], title: str = "", cell: int = CELL, moments: Sequence[Moment] | None = None
              ) -> tuple[list[Image.Image], list[int]]:
    """The GIF's frames and durations (:func:`animated`, every frame kept)."""
    images, durations = animated(board, frames, robots, events, players, title, cell, moments)
    return list(images), durations


def animated(board: Board, frames: Sequence[Frame], robots: Sequence[Sequence[Robot]], events: Sequence[Event],
             players: Sequence[Player], title: str = "", cell: int = CELL, moments: Sequence[Moment] | None = None,
             reuse: bool = False) -> tuple[Iterator[Image.Image], list[int]]:
    """The GIF's frames (drawn one at a time, as they are asked for) and durations: each stage picture
    (``frames``, already drawn), and before it the in-between frames of its stage's beats: the cards one after
    another in priority order (a robot pushed moving when its pusher reaches it), then the elements' steps.
    ``robots`` are ``TurnResult.frames``; ``moments`` (one a picture): the elements in a stage's in-between
    frames are as that stage's register phase and the state before it. ``reuse``: the in-between frames are
    drawn in two images by turns (:class:`Buffers`: each good until the next but one is asked for, as
    :func:`.gif.gif_bytes` reads them)."""
    stages = plan([beats(robots[i - 1], events_of(events, frame_phase(fr.key)),
                         ghosts_in(moments[i - 1][1]) if moments else ()) if i else []
                   for i, fr in enumerate(frames)])
    durations: list[int] = []
    for i, stage in enumerate(stages):
        durations += [TWEEN_MS] * sum(count for _, count in stage)
        durations.append(EDGE_MS if i in (0, len(frames) - 1) else STAGE_MS)

    def images() -> Iterator[Image.Image]:
        buffers = Buffers() if reuse else None
        for i, fr in enumerate(frames):
            stage = stages[i]
            if stage:
                name = fr.caption.split(": ")[-1].replace("after ", "")
                text = f"{title}: {name}" if title else name
                at = (moments[i][0], moments[i - 1][1]) if moments else None
                yield from stage_frames(board, stage, players, board.flag_count, text, cell, robots[i - 1], at,
                                        buffers)
            yield fr.image

    return images(), durations
