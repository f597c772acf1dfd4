"""Frames: the kept floor of a course with the robots and the marks of a stage drawn on it, mapped to one
palette per course and set of players (so PNGs are small and every frame of the GIF shares it). The PNGs
and the GIF made of them are written by :mod:`.png` and :mod:`.gif`."""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from PIL import Image, ImageDraw

from ..engine import Board, Event, Robot
from ..engine.looks import Phase, states
from ..engine.state import BoardState
from .board_image import draw_floor, frame_keys, frame_phase
from .board_memo import board_memo
from .colours import (
    BACKGROUND,
    BEAM,
    BELT_BG,
    DAMAGE,
    EXPRESS_BG,
    FLOOR,
    GRID,
    HEAL,
    HIT,
    INK,
    OPTION,
    RGB,
    WHITE,
    WRECK,
)
from .fonts import font, stamp, stamp_box
from .ghosts import GHOST, Ghost, draw_ghosts, draw_glares, ghost_tables, ghosts_in, with_ghosts
from .layout import CELL, Layout
from .marks import Marks, events_of, stage_marks
from .painters import ACTIVE, BARRICADE, BARRICADE_BROKEN
from .players import Player
from .robots import (
    draw_badges,
    draw_paths,
    draw_robot,
    draw_robots,
    draw_shots,
    draw_strip,
    draw_wrecks,
    mix,
    robot_places,
    strip_height,
)
from .states import Changes, changes, draw_changes, has_looks
from .tile_strokes import DOOR, PISTON, PISTON_SHADOW

#: freed image memory Pillow keeps for the next image (by default it keeps none, so each of the few dozen
#: images a turn's pictures make asks the system for fresh pages); a PILLOW_BLOCKS_MAX set in the environment
#: is left as it is
KEPT_BLOCKS = 16
if "PILLOW_BLOCKS_MAX" not in os.environ and Image.core.get_blocks_max() < KEPT_BLOCKS:
    Image.core.set_blocks_max(KEPT_BLOCKS)

#: a moment of the turn a picture shows: the register phase (or ``start``, ``end``) and the board state then
Moment = tuple[Phase, BoardState]


# -- frames ---------------------------------------------------------------------------------------
@dataclass
class _Floor:
    image: Image.Image
    layout: Layout
    #: player colours -> the palette image frames are mapped to
    palettes: dict[tuple[str, ...], Image.Image] = field(default_factory=dict)
    #: player colours -> the floor mapped to that palette
    mapped: dict[tuple[str, ...], Image.Image] = field(default_factory=dict)
    #: the resting floor this one is drawn from (None: this is it); its palette is every picture's
    base: _Floor | None = None
    #: squares drawn otherwise (:mod:`.states`) -> the floor with them
    states: dict[Changes, _Floor] = field(default_factory=dict)


def floor(board: Board, cell: int = CELL, players: int = 0) -> _Floor:
    """The board's floor at this cell size (with room for a status strip of ``players`` robots), drawn the
    first time it is asked for and kept as long as the board is."""
    per_board = board_memo(board, "floors")
    key = (cell, players)
    got = per_board.get(key)
    if got is None:
        base = per_board.get((cell, 0))
        if base is None and players:
            base = floor(board, cell, 0)
        bare = base.image if base is not None else draw_floor(board, cell)
        strip = strip_height(board, cell, players)
        lay = Layout(board.width, board.height, cell, strip)
        if strip:
            image = Image.new("RGB", lay.size, BACKGROUND)
            image.paste(bare, (0, 0))
            ImageDraw.Draw(image).line([(0, bare.height), (lay.size[0], bare.height)], fill=GRID, width=1)
        else:
            image = bare
        got = per_board[key] = _Floor(image, lay)
    return got


#: kept floors drawn otherwise per resting floor (a board with many pistons and barricades has many)
MAX_STATES = 64


def floor_at(board: Board, cell: int, players: int, phase: Phase, state: BoardState | None) -> _Floor:
    """The floor as it is in ``phase`` with ``state`` (:mod:`.states`): the resting floor with the squares
    whose elements look otherwise drawn again, kept per set of such squares."""
    base = floor(board, cell, players)
    if state is None or not has_looks(board):
        return base
    found = changes(board, phase, state)
    if not found:
        return base
    got = base.states.get(found)
    if got is None:
        image = base.image.copy()
        draw_changes(image, board, cell, found)
        if len(base.states) >= MAX_STATES:
            base.states.clear()
        got = base.states[found] = _Floor(image, base.layout, base=base)
    return got


#: colours the marks use, put in every palette
MARK_COLOURS: tuple[RGB, ...] = (INK, WHITE, BEAM, HIT, DAMAGE, HEAL, OPTION, WRECK, GRID)
#: colours the changing looks use, put in the palette of a board that has them (:mod:`.states`)
LOOK_COLOURS: tuple[RGB, ...] = (ACTIVE, PISTON_SHADOW, BARRICADE, BARRICADE_BROKEN, DOOR)


def _look_tints() -> tuple[RGB, ...]:
    """The pistons' colours, down (pale) and up (their lit edge)."""
    return tuple(mix(c, WHITE, k) for c in PISTON.values() for k in (0.78, 0.55)) + tuple(PISTON.values())


def _palette(board: Board, fl: _Floor, players: Sequence[Player]) -> Image.Image:
    """A palette for the frames: the floor's colours, every player's robot (real and virtual) and the marks."""
    fl = fl.base or fl
    key = tuple(p.hex for p in players)
    pal = fl.palettes.get(key)
    if pal is None:
        s = fl.layout.cell
        w, h = fl.image.size
        looks = [(p, virtual, bg) for p in players
                 for virtual, bg in ((False, FLOOR), (True, FLOOR), (False, BELT_BG), (True, EXPRESS_BG))]
        per_row = max(1, w // s)
        rows = math.ceil(len(looks) / per_row) + 1
        sheet = Image.new("RGB", (w, h + rows * s), BACKGROUND)
        sheet.paste(fl.image, (0, 0))
        d = ImageDraw.Draw(sheet)
        for i, (p, virtual, bg) in enumerate(looks):
            x, y = i % per_row * s, h + i // per_row * s
            d.rectangle([x, y, x + s, y + s], fill=bg)
            draw_robot(d, x + s / 2, y + s / 2, s, p.rgb, 1, virtual, p.initials)
        y = h + (rows - 1) * s
        extra = LOOK_COLOURS + _look_tints() if has_looks(board) else ()
        for i, colour in enumerate(MARK_COLOURS + tuple(mix(p.rgb, WRECK, 0.45) for p in players) + extra):
            d.rectangle([i * 6, y, i * 6 + 5, y + s], fill=colour)
        pal = fl.palettes[key] = sheet.quantize(colors=255, method=Image.Quantize.FASTOCTREE)
    return pal


def _caption_at(lay: Layout) -> tuple[tuple[float, float], int]:
    return (lay.left, lay.title / 2 + 1), max(10, lay.cell * 13 // 32)


def _caption_parts(lay: Layout, text: str) -> list[tuple[tuple[float, float], str]]:
    """Where each part of a caption goes: ``game turn 4: after stage 2`` is written as ``game turn 4: ``
    and ``after stage 2`` beside it, so a turn renders its title once and the stage parts are the same
    sprites every turn (a caption is new text every turn, and rendering text is the costly part)."""
    (x, y), size = _caption_at(lay)
    head, sep, tail = text.rpartition(": ")
    if not sep or not tail:
        return [((x, y), text)]
    return [((x, y), head + sep), ((x + _advance(head + sep, size), y), tail)]


@lru_cache(maxsize=256)
def _advance(text: str, size: int) -> int:
    """How far the pen moves after ``text`` in the caption's font, in whole pixels."""
    return round(font(size, True).getlength(text))


def draw_caption(img: Image.Image, lay: Layout, text: str) -> None:
    if text:
        d = ImageDraw.Draw(img)
        size = _caption_at(lay)[1]
        for xy, part in _caption_parts(lay, text):
            stamp(d, xy, part, size, True, INK, "lm")


Box = tuple[int, int, int, int]


def caption_box(lay: Layout, text: str) -> Box | None:
    """The pixels :func:`draw_caption` may change (None: no caption)."""
    if not text:
        return None
    size = _caption_at(lay)[1]
    boxes = [stamp_box(xy, part, size, True, INK, "lm") for xy, part in _caption_parts(lay, text)]
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


def strip_box(lay: Layout) -> Box | None:
    """The pixels of the status strip (None: no strip)."""
    w, h = lay.size
    return (lay.ox, lay.oy + h - lay.strip, lay.ox + w, lay.oy + h) if lay.strip else None


def robot_box(cx: float, cy: float, size: float) -> Box:
    """The pixels a robot drawn at (cx, cy) in a ``size`` square may change (any facing, label, options)."""
    half = size / 2 + 3
    return (math.floor(cx - half), math.floor(cy - half), math.ceil(cx + half), math.ceil(cy + half))


def merged(boxes: Sequence[Box | None], size: tuple[int, int]) -> list[Box]:
    """Boxes clipped to an image of ``size``, overlapping ones joined (so each pixel is in one box at most)."""
    out = [(max(0, b[0]), max(0, b[1]), min(size[0], b[2]), min(size[1], b[3])) for b in boxes if b]
    out = [b for b in out if b[0] < b[2] and b[1] < b[3]]
    joined = True
    while joined:
        joined = False
        for i, a in enumerate(out):
            for j in range(i + 1, len(out)):
                b = out[j]
                if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]:
                    out[i] = (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))
                    del out[j]
                    joined = True
                    break
            if joined:
                break
    return out


def mapped_floor(board: Board, players: Sequence[Player], cell: int = CELL, strip: bool = True,
                 at: Moment | None = None) -> Image.Image:
    """The floor mapped to the frames' palette (kept): what a frame is, away from what is drawn on it; ``at``:
    the floor as it is at that moment of the turn."""
    fl = floor_at(board, cell, len(players) if strip else 0, *(at or (None, None)))
    key = tuple(p.hex for p in players)
    got = fl.mapped.get(key)
    if got is None:
        got = fl.mapped[key] = fl.image.quantize(palette=_palette(board, fl, players), dither=Image.Dither.NONE)
    return got


def frame_palette(board: Board, players: Sequence[Player], cell: int = CELL, strip: bool = True) -> Image.Image:
    """The palette image every frame of ``board`` with ``players`` is mapped to."""
    return _palette(board, floor(board, cell, len(players) if strip else 0), players)


def quantized_parts(board: Board, parts: Sequence[Image.Image], players: Sequence[Player], cell: int = CELL,
                    strip: bool = True) -> list[Image.Image]:
    """:func:`quantized` of several small RGB images, mapped in one go (laid side by side in rows on one
    sheet, :func:`shelves`: each mapping to the palette has a fixed cost besides its pixels, and a pixel is
    mapped alike wherever it lies)."""
    if not parts:
        return []
    fl = floor(board, cell, len(players) if strip else 0)
    spots, size = shelves([p.size for p in parts])
    sheet = Image.new("RGB", size)
    for part, spot in zip(parts, spots, strict=True):
        sheet.paste(part, spot)
    mapped = sheet.quantize(palette=_palette(board, fl, players), dither=Image.Dither.NONE)
    return [mapped.crop((x, y, x + p.width, y + p.height)) for p, (x, y) in zip(parts, spots, strict=True)]


def shelves(sizes: Sequence[tuple[int, int]]) -> tuple[list[tuple[int, int]], tuple[int, int]]:
    """Where each of ``sizes`` (width, height) goes on a sheet as wide as the widest, in rows left to right
    (a row as high as its highest), and the sheet's size: about a quarter of the pixels of one above another."""
    width = max(w for w, _ in sizes)
    spots = []
    x = y = row = 0
    for w, h in sizes:
        if x + w > width:
            x, y, row = 0, y + row, 0
        spots.append((x, y))
        x, row = x + w, max(row, h)
    return spots, (width, y + row)


def frame_rgb(board: Board, robots: Sequence[Robot], players: Sequence[Player], caption: str = "",
              cell: int = CELL, marks: Marks | None = None, strip: bool = True, at: Moment | None = None
              ) -> Image.Image:
    """The board with the robots on it, full colour: with ``marks``, what happened in the stage too; with
    ``strip``, every player's HP, flags and lives under the board; ``at``: the elements as they are at that
    moment of the turn (else at rest)."""
    fl = floor_at(board, cell, len(players) if strip else 0, *(at or (None, None)))
    img = fl.image.copy()
    draw_frame(img, fl.layout, board, robots, players, caption, marks, ghosts_in(at[1]) if at else ())
    return img


def draw_frame(img: Image.Image, lay: Layout, board: Board, robots: Sequence[Robot], players: Sequence[Player],
               caption: str = "", marks: Marks | None = None, ghosts: Sequence[Ghost] = ()) -> None:
    """What :func:`frame_rgb` draws on the floor, drawn on ``img`` (a copy of it): the stage's paths and wrecks,
    the ghosts, the robots, the shots and damage, the status strip and the caption."""
    d = ImageDraw.Draw(img)
    order = {p.robot: i for i, p in enumerate(players)}
    places = robot_places(lay, robots, order)
    if marks:
        draw_paths(d, lay, marks, players)
        draw_wrecks(d, lay, marks, players)
    if ghosts:
        draw_ghosts(d, lay, ghosts, {p.robot: (p.rgb, p.initials) for p in players})
    draw_robots(img, lay, robots, players)
    if marks:
        draw_shots(d, lay, marks, players)
        draw_glares(d, lay, marks.glares, {p.robot: (p.rgb, p.initials) for p in players})
        draw_badges(d, lay, marks, places)
    draw_strip(img, lay, robots, players, board.flag_count)
    draw_caption(img, lay, caption)


def quantized(board: Board, img: Image.Image, players: Sequence[Player], cell: int = CELL,
              strip: bool = True) -> Image.Image:
    """An RGB frame mapped to the palette of its board and players (what PNGs and the GIF are made of)."""
    fl = floor(board, cell, len(players) if strip else 0)
    return img.quantize(palette=_palette(board, fl, players), dither=Image.Dither.NONE)


def frame(board: Board, robots: Sequence[Robot], players: Sequence[Player], caption: str = "",
          cell: int = CELL, marks: Marks | None = None, strip: bool = True, at: Moment | None = None) -> Image.Image:
    """The board with the robots on it, as a palette image (see :func:`frame_rgb`)."""
    return quantized(board, frame_rgb(board, robots, players, caption, cell, marks, strip, at), players, cell,
                     strip)


@dataclass(frozen=True, slots=True)
class Frame:
    """One picture of the turn report: ``key`` names it (``start``, ``stage1``... ``end``)."""

    key: str
    caption: str
    image: Image.Image
    #: what the picture marks (paths, shots, damage, wrecks) of the stage it ends
    marks: Marks = field(default_factory=Marks)


def turn_frames(board: Board, frames: Sequence[Sequence[Robot]], players: Sequence[Player], phases_run: int,
                end_of_turn: bool, title: str = "", cell: int = CELL,
                events: Sequence[Event] = (), moments: Sequence[Moment] | None = None) -> list[Frame]:
    """One picture per entry of ``TurnResult.frames``, captioned ``title: after stage 2`` and so on; with
    ``events``, each picture marks what happened in the stage it ends; with ``moments`` (one a picture:
    :func:`moments`), the elements are drawn as they are then."""
    keys = frame_keys(phases_run, end_of_turn)
    if len(keys) != len(frames):
        raise ValueError(f"{len(frames)} frames for {len(keys)} pictures ({phases_run} stages run)")
    out = []
    for i, ((key, caption), robots) in enumerate(zip(keys, frames, strict=True)):
        text = f"{title}: {caption}" if title else caption
        before = frames[i - 1] if i else robots
        at = moments[i] if moments else None
        ghosts = [(g.parent, g.at, g.facing) for g in ghosts_in(at[1])] if at else []
        marks = stage_marks(before, events_of(events, frame_phase(key)), ghosts) if events else Marks()
        out.append(Frame(key, text, frame(board, robots, players, text, cell, marks, at=at), marks))
    return out


def moments(board: Board, phases_run: int, end_of_turn: bool, events: Sequence[Event],
            before: BoardState | None) -> list[Moment] | None:
    """(phase, board state) at each picture of a turn (``before``: the state the turn began with); None
    when nothing on the board looks otherwise during a turn and no ghost can be on it. The state's ghost
    table is where the ghosts are at that picture (:mod:`.ghosts`)."""
    graves = "grave" in board.layers or bool(before and before.values.get(GHOST))
    if not has_looks(board) and not graves:
        return None
    phases = [frame_phase(key) for key, _ in frame_keys(phases_run, end_of_turn)]
    start = before or BoardState()
    at = states(start, events, phases) if has_looks(board) else [start] * len(phases)
    if graves:
        at = [with_ghosts(state, table) for state, table in zip(at, ghost_tables(start, events, phases), strict=True)]
    return list(zip(phases, at, strict=True))
