"""A stage cut into *beats*, the order in which the GIF shows what moved (:mod:`.motion`): one beat per card, in
the order the cards were played (priority), then one per step of the timing table that moved or turned a robot
(belts, pushers, gears...), as the rules play a register.

In a card's beat its robot goes square by square and a robot it pushes stands still until the pusher reaches it,
then moves a square with each square the pusher moves (:func:`push_times`). A ghost's card is a beat of its own
among the robots' (a ghost is carried here as a robot named :func:`ghost_key`, never drawn as one).
"""

from __future__ import annotations

import contextlib
from collections.abc import Container, Sequence
from dataclasses import dataclass, field

from ..engine import Event, Robot
from ..engine.geometry import parse_dir
from .ghosts import GONE, KINDS, RISES, TURNS, Ghost, ghost_of
from .ghosts import MOVES as GHOST_MOVES
from .marks import MOVES, OWN, square_of


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
    #: that card's priority, where the events say
    priority: int | None = None


#: the timing table's step in which the robots' cards are played, one after another in priority order
CARDS_STEP = "robots"


def _turn_between(a: int, b: int, hint: int | None) -> int:
    diff = (b - a) % 4
    if diff == 3:
        return -1
    if diff == 2 and hint is not None:
        return 2 * hint
    return diff


#: how a ghost is named among the robots of a beat
GHOST_KEY = "ghost\x00"


def ghost_key(parent: str) -> str:
    """The name a ghost goes by among the robots of a beat (no robot's name can be it)."""
    return GHOST_KEY + parent


def ghost_parent(name: str) -> str | None:
    """The parent of the ghost a beat's robot stands for (None: a robot)."""
    return name[len(GHOST_KEY):] if name.startswith(GHOST_KEY) else None


def _priority(ev: Event) -> int | None:
    """The priority of the card an event of the cards' step belongs to, where it says (a push, a card's event)."""
    data = ev.data or {}
    if isinstance(data.get("priority"), int):
        return int(data["priority"])
    words = str(data.get("card", "")).split()
    return int(words[-1]) if words and words[-1].isdigit() else None


def _card_of(ev: Event, names: Container[str], current: Beat | None, involved: set[str]) -> str:
    """Whose card an event of the cards' step belongs to: the pusher's for a push (the card's robot when a robot
    it pushes pushes on: the same priority), the robot's own for an event of its card, else the card being played
    when the event is about a robot it moved (a pushed robot falling)."""
    data = ev.data or {}
    name = ev.robot or ""
    playing = current.card if current is not None else None
    if ev.kind == "pushed" and str(data.get("by", "")) in names:
        by = str(data["by"])
        same = current is not None and _priority(ev) == current.priority
        return playing if playing is not None and by in involved and same else by
    if "card" in data or playing is None or name not in involved:
        return name
    return playing


def _as_robot_event(ev: Event, state: dict[str, Robot]) -> Event | None:
    """A ghost's event as the event of the robot that stands for it in a beat (:func:`ghost_key`): its drift a
    move, its turn a face, its rising a re-entry, its fading a destruction; other events as they are."""
    parent = ghost_of(ev)
    if parent is None:
        return ev
    name = ghost_key(parent)
    args = ev.args or {}
    if ev.kind == RISES:
        state.setdefault(name, Robot(name, None, 0, virtual=True))
        return Event(ev.phase, ev.step, name, "re-enter", {"at": args.get("at")}, {"facing": "N"})
    if name not in state:
        return None
    kind = {GHOST_MOVES: OWN, TURNS: "face", GONE: "destroyed"}[ev.kind]
    return Event(ev.phase, ev.step, name, kind, args, ev.data)


def beats(before: Sequence[Robot], events: Sequence[Event], ghosts: Sequence[Ghost] = ()) -> list[Beat]:
    """The beats of one stage: ``before`` the robots as it began, ``ghosts`` the ghosts then, ``events`` its
    events. The cards' step gives one beat per card (a ghost's too), in the order the cards were played
    (priority); every other step one beat."""
    state = {r.name: r.copy() for r in before}
    for g in ghosts:
        state[ghost_key(g.parent)] = Robot(ghost_key(g.parent), g.at, g.facing, virtual=True)
    out: list[Beat] = []
    current: Beat | None = None
    involved: set[str] = set()
    for raw in events:
        got = _as_robot_event(raw, state) if raw.kind in KINDS else raw
        if got is None:
            continue
        ev = got
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
        if current.card is not None and current.priority is None:
            current.priority = _priority(ev)
        involved.add(name)
        robot = state[name]
        args = ev.args or {}
        if ev.kind in MOVES:
            to = square_of(args.get("to"))
            if robot.pos is not None and to is not None:
                path = current.paths.setdefault(name, [robot.pos])
                path += _squares_between(robot.pos, to) if ev.kind == OWN else [to]
            if to is not None:
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


