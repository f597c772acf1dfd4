"""Robots on the board and the marks of what happened to them: paths, laser hits, damage, wrecks, and the
status strip under the board. Drawn on a copy of the floor (see :mod:`.frames`)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from ..engine import Board, Robot
from ..engine.geometry import Square
from ..engine.option_cards import CARDS
from .colours import BACKGROUND, BEAM, DAMAGE, GEAR_EDGE, GRID, HEAL, HIT, INK, OPTION, RGB, WHITE, WRECK
from .fonts import font, stamp
from .layout import Layout, Pt, turned
from .marks import Marks
from .players import Player
from .status_marks import draw_status_chips, status_marks


# -- robots ---------------------------------------------------------------------------------------
def mix(a: RGB, b: RGB, t: float) -> RGB:
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t), round(a[2] + (b[2] - a[2]) * t))


def _ink_on(colour: RGB) -> RGB:
    lum = 0.299 * colour[0] + 0.587 * colour[1] + 0.114 * colour[2]
    return INK if lum > 150 else WHITE


def _rot(points: Sequence[Pt], quarters: float, cx: float, cy: float) -> list[Pt]:
    """Points drawn for facing N, turned ``quarters`` quarter turns clockwise about (cx, cy)."""
    if quarters == int(quarters):
        return turned(points, int(quarters), cx, cy)
    a = quarters * math.pi / 2
    ca, sa = math.cos(a), math.sin(a)
    return [(cx + x * ca - y * sa, cy + x * sa + y * ca) for x, y in points]


def draw_robot(d: ImageDraw.ImageDraw, cx: float, cy: float, size: float, colour: RGB, facing: float,
               virtual: bool, label: str, options: bool = False, marks: Sequence[str] = ()) -> None:
    """One robot in a ``size`` square centred on (cx, cy): a disc in its colour with a wide arrow nose
    where it faces (``facing`` in quarter turns from north, fractions while it turns).

    A virtual robot is a pale disc with a dashed ring, its letters in its colour. A robot holding option
    cards has a gold diamond at its lower left; the marks of its statuses (``marks``, see
    :func:`status_marks`) are white chips up its right side from the lower right.
    """
    r = size * 0.33
    nose = [(0, -size * 0.5), (size * 0.27, -r * 0.4), (-size * 0.27, -r * 0.4)]
    box = [cx - r, cy - r, cx + r, cy + r]
    if virtual:
        pale = mix(colour, WHITE, 0.72)
        d.polygon(_rot(nose, facing, cx, cy), fill=pale, outline=colour)
        d.ellipse(box, fill=pale)
        w = max(2, round(size / 14))
        for a in range(0, 360, 45):
            d.arc(box, start=a, end=a + 28, fill=colour, width=w)
        text_fill = mix(colour, INK, 0.25)
    else:
        d.polygon(_rot(nose, facing, cx, cy), fill=colour, outline=INK)
        d.ellipse(box, fill=colour, outline=INK, width=max(1, round(size / 20)))
        text_fill = _ink_on(colour)
    if label:
        fsize = max(7, round(size * (0.38 if len(label) == 1 else 0.28)))
        stamp(d, (cx, cy), label, fsize, True, text_fill)
    if options:
        k = max(3.0, size * 0.13)
        ox, oy = cx - r * 0.9, cy + r * 0.9
        d.polygon([(ox, oy - k), (ox + k, oy), (ox, oy + k), (ox - k, oy)], fill=OPTION, outline=INK)
    if marks:
        draw_status_chips(d, cx + r, cy + size * 0.48, size, marks)


#: a robot as :func:`draw_robot` takes it after its centre: size, colour, facing, virtual, label, options, marks
Look = tuple[float, RGB, float, bool, str, bool, tuple[str, ...]]


@dataclass(frozen=True, slots=True)
class Place:
    """Where a robot is drawn: its centre and size in pixels."""

    cx: float
    cy: float
    size: float


#: robots sharing a square: their size (a share of the square) and the least distance of their centres from the
#: square's; five or more are set on a ring wide enough that none covers another (with a gap of :data:`FAN_GAP`)
FAN_SIZE = 0.7
FAN_RADIUS = 0.56
FAN_GAP = 1.12


def fan_radius(count: int, size: float) -> float:
    """How far from their square's centre ``count`` robots of ``size`` sharing it are drawn: round a ring on
    which none overlaps another (the ring reaches over the squares around once there are five or more)."""
    return max(FAN_RADIUS * size / FAN_SIZE, count * size * FAN_GAP / (2 * math.pi))


def robot_places(lay: Layout, robots: Sequence[Robot], order: Mapping[str, int]) -> dict[str, Place]:
    """Where each robot on the board is drawn. A robot alone fills its square; robots sharing a square (the
    virtual robots on the dock at the start) are fanned out around it, each whole and apart from the others
    (eight on one dock reach over the squares around it), so each is findable and readable and the square's
    own mark (the dock number) stays in sight."""
    by_square: dict[Square, list[Robot]] = {}
    for robot in robots:
        if robot.pos is not None:
            by_square.setdefault(robot.pos, []).append(robot)
    out: dict[str, Place] = {}
    s = lay.cell
    for sq, here in by_square.items():
        cx, cy = lay.centre(sq)
        if len(here) == 1:
            out[here[0].name] = Place(cx, cy, s)
            continue
        here.sort(key=lambda r: (order.get(r.name, len(order)), r.name))
        n = len(here)
        size = s * FAN_SIZE
        radius = fan_radius(n, size)
        if radius > s * FAN_RADIUS:  # a ring over the squares around is kept on the board, off an edge it crosses
            reach = radius + size / 2
            x0, y0 = lay.left, lay.top
            x1, y1 = x0 + lay.width * s, y0 + lay.height * s
            cx = min(max(cx, x0 + reach), x1 - reach) if x1 - x0 > 2 * reach else cx
            cy = min(max(cy, y0 + reach), y1 - reach) if y1 - y0 > 2 * reach else cy
        for i, robot in enumerate(here):
            a = math.radians(-90 + 360 * (i + 0.5) / n)
            out[robot.name] = Place(cx + radius * math.cos(a), cy + radius * math.sin(a), size)
    return out


def shared_squares(robots: Sequence[Robot]) -> set[Square]:
    seen: dict[Square, int] = {}
    for r in robots:
        if r.pos is not None:
            seen[r.pos] = seen.get(r.pos, 0) + 1
    return {sq for sq, n in seen.items() if n > 1}


def mark_shared(d: ImageDraw.ImageDraw, lay: Layout, sq: Square, fan: Sequence[Place]) -> None:
    """A square several robots share: a ring round it, and a thin line from it to each robot drawn beyond it."""
    x, y = lay.origin(sq)
    s = lay.cell
    d.rectangle([x + 1, y + 1, x + s - 1, y + s - 1], outline=INK, width=2)
    cx, cy = lay.centre(sq)
    for pl in fan:
        dx, dy = pl.cx - cx, pl.cy - cy
        far = max(abs(dx), abs(dy))
        if far > s * 0.5 + pl.size * 0.3:  # drawn beyond the square: a line from its side to the robot
            k = s * 0.5 / far
            d.line([(cx + dx * k, cy + dy * k), (pl.cx, pl.cy)], fill=INK, width=max(1, s // 24))


def look(players: Sequence[Player], name: str, default: RGB = GEAR_EDGE) -> tuple[RGB, str]:
    for p in players:
        if p.robot == name:
            return p.rgb, p.initials
    return default, name[:1].upper()


def draw_robots(img: Image.Image, lay: Layout, robots: Sequence[Robot], players: Sequence[Player],
                places: Mapping[str, Place] | None = None, facing: Mapping[str, float] | None = None) -> None:
    """Robots on the board in their players' colours (at ``places``, else where they stand); robots sharing a
    square are fanned out around it with a ring round the square. ``facing`` overrides facings (animation)."""
    d = ImageDraw.Draw(img)
    if places is None:
        places = robot_places(lay, robots, {p.robot: i for i, p in enumerate(players)})
        for sq in shared_squares(robots):
            mark_shared(d, lay, sq, [places[r.name] for r in robots if r.pos == sq])
    for pl, look in robot_looks(lay, robots, players, places, facing):
        draw_robot(d, pl.cx, pl.cy, *look)


def robot_looks(lay: Layout, robots: Sequence[Robot], players: Sequence[Player], places: Mapping[str, Place],
                facing: Mapping[str, float] | None = None) -> list[tuple[Place, Look]]:
    """Where and how :func:`draw_robots` draws each robot at ``places``, in its order (fanned-out robots first)."""
    order = {p.robot: i for i, p in enumerate(players)}
    here = sorted((r for r in robots if r.name in places),
                  key=lambda r: (places[r.name].size >= lay.cell, order.get(r.name, len(order)), r.name))
    out = []
    for r in here:
        pl, (colour, initials) = places[r.name], look(players, r.name)
        out.append((pl, (pl.size, colour, (facing or {}).get(r.name, r.facing), r.virtual,
                         initials if pl.size >= 18 else "", bool(r.options), status_marks(r.statuses))))
    return out


# -- what happened: paths, shots, damage, wrecks --------------------------------------------------
def dashed_line(d: ImageDraw.ImageDraw, a: Pt, b: Pt, fill: RGB, width: int, dash: float, gap: float) -> None:
    length = math.dist(a, b)
    if length == 0:
        return
    ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    t = 0.0
    while t < length:
        e = min(length, t + dash)
        d.line([(a[0] + ux * t, a[1] + uy * t), (a[0] + ux * e, a[1] + uy * e)], fill=fill, width=width)
        t = e + gap


def arrowhead(d: ImageDraw.ImageDraw, a: Pt, b: Pt, size: float, fill: RGB) -> None:
    length = math.dist(a, b)
    if length == 0:
        return
    ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    bx, by = b[0] - ux * size, b[1] - uy * size
    d.polygon([b, (bx - uy * size * 0.6, by + ux * size * 0.6), (bx + uy * size * 0.6, by - ux * size * 0.6)],
              fill=fill, outline=INK)


def draw_paths(d: ImageDraw.ImageDraw, lay: Layout, marks: Marks, players: Sequence[Player]) -> None:
    """Each robot's moves in its colour, solid for its own card and dashed when something else moved it;
    a ring where it set off. Robots' paths are set a little apart so two robots on one row both show."""
    s = lay.cell
    order = {p.robot: i for i, p in enumerate(players)}
    n = max(1, len(players))
    w = max(3, s // 9)
    started: set[str] = set()
    for seg in marks.segments:
        colour, _ = look(players, seg.robot)
        off = (order.get(seg.robot, 0) - (n - 1) / 2) * max(1.0, s / (3 * n))
        (ax, ay), (bx, by) = lay.centre(seg.start), lay.centre(seg.end)
        horizontal = abs(bx - ax) >= abs(by - ay)
        a = (ax, ay + off) if horizontal else (ax + off, ay)
        b = (bx, by + off) if horizontal else (bx + off, by)
        if seg.own:
            d.line([a, b], fill=colour, width=w)
        else:
            dashed_line(d, a, b, colour, w, s * 0.22, s * 0.14)
        arrowhead(d, a, b, s * 0.24, colour)
        if seg.robot not in started:
            started.add(seg.robot)
            r = s * 0.14
            d.ellipse([a[0] - r, a[1] - r, a[0] + r, a[1] + r], fill=WHITE, outline=colour, width=max(2, w - 1))


def draw_wrecks(d: ImageDraw.ImageDraw, lay: Layout, marks: Marks, players: Sequence[Player]) -> None:
    """A wreck where a robot was destroyed: its colour, crossed out in black."""
    s = lay.cell
    for wreck in marks.wrecks:
        colour, initials = look(players, wreck.robot)
        cx, cy = lay.centre(wreck.at)
        r = s * 0.34
        d.ellipse([cx - r, cy - r, cx + r, cy + r], fill=mix(colour, WRECK, 0.45), outline=INK, width=2)
        k = s * 0.3
        w = max(3, s // 8)
        d.line([(cx - k, cy - k), (cx + k, cy + k)], fill=INK, width=w)
        d.line([(cx - k, cy + k), (cx + k, cy - k)], fill=INK, width=w)
        stamp(d, (cx + s * 0.3, cy - s * 0.3), initials, max(8, s * 9 // 32), True, WHITE, stroke=2, stroke_fill=INK)


def draw_shots(d: ImageDraw.ImageDraw, lay: Layout, marks: Marks, players: Sequence[Player]) -> None:
    """A robot laser that hit: a beam in the shooter's colour with a red core, from the side of the square it
    fired from along its row or column to the square where the beam stopped, and a burst there. Drawn from
    the squares of the shot (not where the robots end the stage), so a beam is never drawn across the grid."""
    s = lay.cell
    for shot in marks.shots:
        colour, _ = look(players, shot.robot)
        (ax, ay), pb = lay.centre(shot.start), lay.centre(shot.end)
        length = math.dist((ax, ay), pb)
        if length == 0:
            continue
        pa = (ax + (pb[0] - ax) / length * s * 0.5, ay + (pb[1] - ay) / length * s * 0.5)
        d.line([pa, pb], fill=colour, width=max(4, s // 6))
        d.line([pa, pb], fill=BEAM, width=max(2, s // 14))
        r = s * 0.18
        burst = [(pb[0] + math.cos(k * math.pi / 6) * (r if k % 2 else r * 0.45),
                  pb[1] + math.sin(k * math.pi / 6) * (r if k % 2 else r * 0.45)) for k in range(12)]
        d.polygon(burst, fill=HIT, outline=BEAM)


def draw_badges(d: ImageDraw.ImageDraw, lay: Layout, marks: Marks, places: Mapping[str, Place]) -> None:
    """The HP a robot lost in the stage (red, ``-2``) or won back (green, ``+1``), at its upper right."""
    s = lay.cell
    for badge in marks.badges:
        pl = places.get(badge.robot)
        cx, cy = (pl.cx, pl.cy) if pl else lay.centre(badge.at)
        size = pl.size if pl else s
        bx, by = cx + size * 0.34, cy - size * 0.34
        r = max(7.0, s * 0.25)
        fill = DAMAGE if badge.damage > 0 else HEAL
        d.ellipse([bx - r, by - r, bx + r, by + r], fill=fill, outline=WHITE, width=1)
        text = f"-{badge.damage}" if badge.damage > 0 else f"+{-badge.damage}"
        stamp(d, (bx, by), text, max(8, round(r * 1.05)), True, WHITE)


# -- the status strip under the board -------------------------------------------------------------
def strip_geometry(width_px: int, cell: int, count: int) -> tuple[int, int, int]:
    """(entries a row, entry width, row height) of the status strip."""
    entry = cell * 7
    per_row = max(1, width_px // entry)
    return per_row, width_px // per_row, max(18, cell * 5 // 8)


def strip_height(board: Board, cell: int, count: int) -> int:
    if count == 0:
        return 0
    width = Layout(board.width, board.height, cell).size[0]
    per_row, _, row_h = strip_geometry(width, cell, count)
    return math.ceil(count / per_row) * row_h + 6


def status_text(robot: Robot | None, flag_total: int) -> str:
    """A robot's state as the strip writes it: ``7 HP  ⚑ 1/3  ♥ 2`` (or out, or destroyed)."""
    if robot is None:
        return "-"
    if robot.out_of_game:
        return "out of the game"
    text = f"{robot.hp} HP  \u2691 {robot.flags}/{flag_total}  \u2665 {robot.lives}"
    if robot.pos is None:
        text = f"destroyed  \u2691 {robot.flags}/{flag_total}  \u2665 {robot.lives}"
    elif robot.powered_down:
        text += "  off"
    return text


_STRIPS: dict[tuple[object, ...], Image.Image] = {}


def draw_strip(img: Image.Image, lay: Layout, robots: Sequence[Robot], players: Sequence[Player],
               flag_total: int) -> None:
    """Every player's robot under the board: its colour and letters, HP, flags touched, lives, and the badges of
    its option cards (gold chips).

    Drawn once for each state of the players (kept, a few hundred at most) and pasted: the in-between frames
    of the GIF and the pictures of a quiet stage show the same strip."""
    if not lay.strip:
        return
    by_name = {r.name: r for r in robots}
    entries = []
    for p in players:
        robot = by_name.get(p.robot)
        entries.append((p.hex, p.initials, p.label, status_text(robot, flag_total), bool(robot and robot.virtual),
                        option_badges(robot.options) if robot else ()))
    key = (lay.size[0], lay.strip, lay.cell, tuple(entries))
    strip = _STRIPS.get(key)
    if strip is None:
        if len(_STRIPS) > 512:
            _STRIPS.clear()
        strip = _STRIPS[key] = _strip_image(lay, players, entries)
    img.paste(strip, (lay.ox, lay.oy + lay.size[1] - lay.strip))


def option_badges(options: Sequence[str]) -> tuple[str, ...]:
    """The badges the option cards declare (``BR`` for Brakes), in the order the robot got them."""
    out = []
    for name in options:
        card = CARDS.get(name)
        out.append(card.badge if card is not None else name[:2].upper())
    return tuple(out)


def draw_option_chips(d: ImageDraw.ImageDraw, x: float, y: float, badges: Sequence[str], room: float,
                      height: float) -> None:
    """A robot's option cards as gold chips with their badges, left to right from (x, y middle), within
    ``room`` pixels (the ones past it counted in a last ``+n`` chip)."""
    fsize = max(8, round(height * 0.62))
    f = font(fsize, True)
    pad, gap = 3, 3
    widths = [f.getlength(b) + 2 * pad for b in badges]
    shown = len(badges)
    while shown and sum(widths[:shown]) + gap * shown + (f.getlength(f"+{len(badges) - shown}") + 2 * pad
                                                         if shown < len(badges) else 0) > room:
        shown -= 1
    chips = [(b, w, OPTION) for b, w in zip(badges[:shown], widths, strict=False)]
    if shown < len(badges):
        more = f"+{len(badges) - shown}"
        chips.append((more, f.getlength(more) + 2 * pad, WHITE))
    top, bottom = y - height / 2, y + height / 2
    for text, w, fill in chips:
        d.rounded_rectangle([x, top, x + w, bottom], radius=2, fill=fill, outline=INK)
        stamp(d, (x + w / 2, y), text, fsize, True, INK)
        x += w + gap


def _strip_image(lay: Layout, players: Sequence[Player],
                 entries: Sequence[tuple[str, str, str, str, bool, tuple[str, ...]]]) -> Image.Image:
    w = lay.size[0]
    img = Image.new("RGB", (w, lay.strip), BACKGROUND)
    d = ImageDraw.Draw(img)
    d.line([(0, 0), (w, 0)], fill=GRID, width=1)
    per_row, entry_w, row_h = strip_geometry(w, lay.cell, len(players))
    fsize = max(9, lay.cell * 11 // 32)
    for i, (p, (_, initials, label, status, virtual, options)) in enumerate(zip(players, entries, strict=True)):
        x = (i % per_row) * entry_w + 6
        y = 4 + (i // per_row) * row_h + row_h / 2
        draw_robot(d, x + row_h / 2, y, row_h, p.rgb, 1, virtual, initials if row_h >= 18 else "", bool(options))
        name = label if len(label) <= 10 else label[:9] + "\u2026"
        stamp(d, (x + row_h + 4, y), name, fsize, True, INK, "lm")
        nx = x + row_h + 8 + font(fsize, True).getlength(name)
        stamp(d, (nx, y), status, fsize, False, INK, "lm")
        if options:
            cx = nx + font(fsize, False).getlength(status) + 8
            draw_option_chips(d, cx, y, options, x - 6 + entry_w - 4 - cx, row_h - 5)
    return img


