"""What happened in one stage, as a list of things to draw: paths, laser hits, damage, wrecks.

Made from the robots as the stage began and the stage's events, nothing else, so a stored turn draws
the same as a fresh one. The list is plain data (tests read it); :mod:`.robots` paints it.

- a :class:`Segment` for every square-to-square move: ``own`` when the robot's own card moved it (drawn
  solid), else carried, pushed, conveyed, slid, teleported, pulled, slung or blown (drawn dashed);
- a :class:`Shot` for every robot laser that hit a robot (misses are not drawn): from the square the shooter
  fired from along its row or column to the far end of the beam (the robot that stopped it), never between
  where the robots end the stage;
- a :class:`Badge` with the HP a robot lost (or won back) in the stage, where it ended the stage;
- a :class:`Wreck` where a robot was destroyed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from ..engine import Event, Robot
from ..engine.geometry import Square, parse_square

#: event kinds that move a robot to the square in ``args["to"]``; only ``move`` is the robot's own card (a magnet
#: pulls, a jack slings, a ventilator blows, a portal sends)
MOVES = frozenset({"move", "pushed", "conveyed", "carried", "slide", "teleport", "pulled", "slung", "blown", "portal"})
OWN = "move"


@dataclass(frozen=True, slots=True)
class Segment:
    robot: str
    start: Square
    end: Square
    #: the robot's own card (solid), or anything else moving it (dashed)
    own: bool
    #: the event kind: move, pushed, conveyed, carried, slide, teleport
    how: str
    #: who pushed it (a robot's name, ``pusher``), when known
    by: str | None = None


@dataclass(frozen=True, slots=True)
class Shot:
    robot: str
    target: str
    #: the square the shooter fired from
    start: Square
    #: where the beam stopped: the last square of its line (the hit robot's, in the shooter's row or column)
    end: Square


@dataclass(frozen=True, slots=True)
class Badge:
    robot: str
    at: Square
    #: HP lost in the stage (positive), or won back (negative)
    damage: int


@dataclass(frozen=True, slots=True)
class Wreck:
    robot: str
    at: Square
    cause: str


@dataclass(slots=True)
class Marks:
    segments: list[Segment] = field(default_factory=list)
    shots: list[Shot] = field(default_factory=list)
    badges: list[Badge] = field(default_factory=list)
    wrecks: list[Wreck] = field(default_factory=list)
    #: a ghost's glare that hit a robot: ``robot`` is the ghost's parent, ``start`` the ghost's square
    glares: list[Shot] = field(default_factory=list)

    def items(self) -> list[Segment | Shot | Badge | Wreck]:
        """Everything, in the order it is painted: paths and wrecks under the robots, shots and badges over."""
        return [*self.segments, *self.wrecks, *self.shots, *self.glares, *self.badges]

    def __bool__(self) -> bool:
        return bool(self.segments or self.shots or self.badges or self.wrecks or self.glares)


def square_of(text: object) -> Square | None:
    """A square from an event's words, or None when a stored event does not name one."""
    try:
        return parse_square(text)
    except (ValueError, TypeError):
        return None


_LINE = re.compile(r"^r(\d+)(?:-(\d+))?c(\d+)(?:-(\d+))?$")


def beam_end(start: Square, path: object) -> Square | None:
    """The far end of a beam fired from ``start`` over ``path`` (the event's squares as the log writes them:
    ``r2c6-8``, ``r4-6c7``, ``r4c5``); None when they are not in line with ``start``."""
    m = _LINE.match(path.strip()) if isinstance(path, str) else None
    if m is None:
        return None
    r1, r2, c1, c2 = (int(g) if g else 0 for g in m.groups())
    ends = [sq for sq in ((r1, c1), (r2 or r1, c2 or c1)) if (sq[0] == start[0]) != (sq[1] == start[1])]
    if not ends:
        return None
    return max(ends, key=lambda sq: abs(sq[0] - start[0]) + abs(sq[1] - start[1]))


#: who dealt a ghost's hit, as the log names it: ``Zoom's ghost r5c3`` (the ghost's parent and square)
_GHOST_SOURCE = re.compile(r"^(?P<parent>.+)'s ghost (?P<at>r\d+c\d+)$")


def glare_from(target: Square, by: object, ghosts: Sequence[tuple[str, Square, int]]) -> tuple[str, Square] | None:
    """The ghost (parent, square) whose glare hit a robot on ``target`` from along its row or column: the one the
    hit names (``by``: ``Zoom's ghost r5c3``), else (turns that named none) the nearest of ``ghosts`` (parent,
    square, facing, at the end of the stage) facing it in line; None when the ghost stands on the robot's square
    (it touched it) or none is in line."""
    m = _GHOST_SOURCE.match(by) if isinstance(by, str) else None
    if m is not None:
        at = square_of(m["at"])
        found = (m["parent"], at) if at is not None else None
    else:
        facing = [(abs(sq[0] - target[0]) + abs(sq[1] - target[1]), parent, sq) for parent, sq, d in ghosts
                  if (sq[0] == target[0]) != (sq[1] == target[1]) and _toward(sq, d, target)]
        found = min(facing)[1:] if facing else None
    if found is None or found[1] == target or (found[1][0] != target[0] and found[1][1] != target[1]):
        return None
    return found


def _toward(start: Square, d: int, target: Square) -> bool:
    """Whether ``target`` lies ahead of ``start`` looking toward ``d`` (N, E, S, W; row 1 at the bottom)."""
    dr, dc = target[0] - start[0], target[1] - start[1]
    return (d == 0 and dr > 0) or (d == 2 and dr < 0) or (d == 1 and dc > 0) or (d == 3 and dc < 0)


def stage_marks(before: Sequence[Robot], events: Iterable[Event],
                ghosts: Sequence[tuple[str, Square, int]] = ()) -> Marks:
    """The marks of one stage: ``before`` are the robots as it began, ``events`` its events in order, ``ghosts``
    (parent, square, facing) where the ghosts are as it ends (for the glares of turns whose hits name no ghost)."""
    at: dict[str, Square | None] = {r.name: r.pos for r in before}
    hp: dict[str, int] = {}
    marks = Marks()
    for ev in events:
        name = ev.robot
        if name is None:
            continue
        args = ev.args or {}
        data = ev.data or {}
        if ev.kind in MOVES:
            to = square_of(args.get("to"))
            here = at.get(name)
            if to is not None and here is not None and to != here:
                by = data.get("by")
                marks.segments.append(Segment(name, here, to, ev.kind == OWN, ev.kind, str(by) if by else None))
            if to is not None:
                at[name] = to
        elif ev.kind == "re-enter":
            at[name] = square_of(args.get("at"))
        elif ev.kind == "destroyed":
            here = at.get(name)
            if here is not None:
                marks.wrecks.append(Wreck(name, here, str(data.get("cause", ""))))
            at[name] = None
        elif ev.kind == "fire" and data.get("hit"):
            target = str(data["hit"])
            a = at.get(name)
            b = beam_end(a, args.get("path")) if a is not None else None
            if a is not None and b is not None:
                marks.shots.append(Shot(name, target, a, b))
        elif ev.kind == "damage":
            hp[name] = hp.get(name, 0) + int(args.get("amount", 0))
            here = at.get(name)
            if data.get("cause") == "ghost" and here is not None:
                glare = glare_from(here, data.get("by"), ghosts)
                if glare is not None:
                    marks.glares.append(Shot(glare[0], name, glare[1], here))
        elif ev.kind == "repair":
            hp[name] = hp.get(name, 0) - int(args.get("amount", 0))
    wrecked = {w.robot: w.at for w in marks.wrecks}
    for name, amount in hp.items():
        where = at.get(name) or wrecked.get(name)
        if amount and where is not None:
            marks.badges.append(Badge(name, where, amount))
    return marks


def events_of(events: Iterable[Event], phase: int | str) -> list[Event]:
    return [e for e in events if e.phase == phase]
