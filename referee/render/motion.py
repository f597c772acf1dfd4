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

import contextlib
import itertools
import math
from collections.abc import Container, Sequence
from dataclasses import dataclass, field

from PIL import Image, ImageDraw

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
from .ghosts import draw_ghosts, ghosts_in
from .layout import CELL, Layout
from .marks import MOVES, OWN, events_of, square_of
from .players import Player
from .robots import Place, draw_robots, draw_strip, robot_places

#: how long an in-between frame shows (ms), and a stage picture (the first and last a little longer)
TWEEN_MS = 180
STAGE_MS = 1200
EDGE_MS = 1800
#: in-between frames a beat gets: a card's as many as the squares it moves, up to this; an element step's one
CARD_TWEENS = 3
OTHER_TWEENS = 1
#: at most this many in-between frames a turn (beats past it show as still frames only)
MAX_TWEENS = 90


@dataclass(slots=True)
class Beat:
    """One step of a stage that moved or turned robots (or, in the cards' step, one card): each robot's squares
    passed, when it reached each of them, and its facings."""

    step: str
    before: list[Robot]
    after: list[Robot]
    #: robot -> the squares it went through, start first (only robots that moved)
    paths: dict[str, list[tuple[int, int]]]
    #: robot -> quarter turns made (signed; +1 right)
    turns: dict[str, int]
    #: robot -> the fraction of the beat at which it is on each square of its path (the first: when it sets off);
    #: a robot not here goes through its squares evenly over the whole beat
    times: dict[str, list[float]] = field(default_factory=dict)
    #: the robot whose card this beat plays (None: a step of the board's elements, every robot at once)
    card: str | None = None


#: the timing table's step in which the robots' cards are played, one after another in priority order
CARDS_STEP = "robots"


def _turn_between(a: int, b: int, hint: int | None) -> int:
    diff = (b - a) % 4
    if diff == 3:
        return -1
    if diff == 2 and hint is not None:
        return 2 * hint
    return diff


def _card_of(ev: Event, names: Container[str], current: Beat | None, involved: set[str]) -> str:
    """Whose card an event of the cards' step belongs to: the pusher's for a push, the robot's own for an event
    of its card, else the card being played when the event is about a robot it moved (a pushed robot falling)."""
    data = ev.data or {}
    name = ev.robot or ""
    if ev.kind == "pushed" and str(data.get("by", "")) in names:
        return str(data["by"])
    if "card" in data or current is None or current.card is None or name not in involved:
        return name
    return current.card


def beats(before: Sequence[Robot], events: Sequence[Event]) -> list[Beat]:
    """The beats of one stage: ``before`` the robots as it began, ``events`` its events. The cards' step gives
    one beat per card, in the order the cards were played (priority); every other step one beat."""
    state = {r.name: r.copy() for r in before}
    out: list[Beat] = []
    current: Beat | None = None
    involved: set[str] = set()
    for ev in events:
        name = ev.robot
        if name is None or name not in state:
            continue
        if ev.kind not in MOVES and ev.kind not in ("face", "destroyed", "re-enter", "real"):
            continue
        card = _card_of(ev, state, current, involved) if ev.step == CARDS_STEP else None
        if current is None or current.step != ev.step or current.card != card:
            if current is not None:
                current.after = [r.copy() for r in state.values()]
            current = Beat(ev.step, [r.copy() for r in state.values()], [], {}, {}, card=card)
            involved = {card} if card else set()
            out.append(current)
        involved.add(name)
        robot = state[name]
        args = ev.args or {}
        if ev.kind in MOVES:
            to = square_of(args.get("to"))
            if robot.pos is not None and to is not None:
                path = current.paths.setdefault(name, [robot.pos])
                path += _squares_between(robot.pos, to) if ev.kind == OWN else [to]
            robot.pos = to
        elif ev.kind == "face":
            try:
                new = parse_dir(args.get("dir"))
            except (ValueError, TypeError):
                continue
            card_text = str((ev.data or {}).get("card", ""))
            hint = -1 if card_text.startswith("LF") else 1 if card_text.startswith(("RT", "UT")) else None
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
    out = [b for b in out if b.paths or b.turns]
    for b in out:
        if b.card is not None:
            b.times = push_times(b)
    return out


def _squares_between(a: tuple[int, int], b: tuple[int, int]) -> list[tuple[int, int]]:
    """The squares a card's move goes through from ``a`` to ``b`` (on one row or column), ``b`` last; a jump
    off the line is one step."""
    if a[0] != b[0] and a[1] != b[1]:
        return [b]
    n = abs(b[0] - a[0]) + abs(b[1] - a[1])
    dr, dc = (b[0] - a[0]) // max(1, n), (b[1] - a[1]) // max(1, n)
    return [(a[0] + dr * k, a[1] + dc * k) for k in range(1, n + 1)]


def push_times(beat: Beat) -> dict[str, list[float]]:
    """When each robot of a card's beat is on each square of its path: the card's robot goes square by square
    over the whole beat; a robot it pushes stands still until the pusher reaches its square, then moves a square
    with each square the pusher moves (and a robot that one pushes on with it, and so on)."""
    assert beat.card is not None
    own = beat.paths.get(beat.card, [])
    steps = max(1, len(own) - 1)
    times: dict[str, list[float]] = {}
    if len(own) > 1:
        times[beat.card] = [k / steps for k in range(len(own))]
    where = {r.name: r.pos for r in beat.before}
    left = {name: list(path[1:]) for name, path in beat.paths.items() if name != beat.card}
    reached = {name: [0.0] for name in left}
    for k in range(1, len(own)):
        entered = own[k]
        where[beat.card] = entered
        mover = beat.card
        while True:  # the robot in the square just entered is pushed on, and the one in its way, and so on
            other = next((n for n, sq in where.items() if sq == entered and n != mover and left.get(n)), None)
            if other is None:
                break
            if reached[other] == [0.0]:
                reached[other] = [(k - 1) / steps]  # it sets off when the pusher reaches it
            to = left[other].pop(0)
            reached[other].append(k / steps)
            where[other], mover, entered = to, other, to
    for name, rest in left.items():  # moves the squares of the card do not explain: at the end of the beat
        got = reached[name]
        first = got[-1] if len(got) > 1 else max(0.0, 1 - 1 / steps)
        for i in range(len(rest)):
            got.append(first + (1 - first) * (i + 1) / len(rest))
    times.update({name: got for name, got in reached.items() if len(got) == len(beat.paths[name])})
    return times


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
    ghosts = ghosts_in(moment[1]) if moment else []
    draw_ghosts(ImageDraw.Draw(work), lay, ghosts, {p.robot: (p.rgb, p.initials) for p in players})
    still = merged([strip_box(lay), caption_box(lay, caption)]
                   + [robot_box(*lay.centre(g.at), lay.cell) for g in ghosts], work.size)
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
    """The GIF's frames and durations: each stage picture (``frames``, already drawn), and before it the
    in-between frames of its stage's beats: the cards one after another in priority order (a robot pushed
    moving when its pusher reaches it), then the elements' steps. ``robots`` are ``TurnResult.frames``;
    ``moments`` (one a picture): the elements in a stage's in-between frames are as that stage's register phase
    and the state before it."""
    images: list[Image.Image] = []
    durations: list[int] = []
    stages = plan([beats(robots[i - 1], events_of(events, frame_phase(fr.key))) if i else []
                   for i, fr in enumerate(frames)])
    for i, fr in enumerate(frames):
        stage = stages[i]
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
