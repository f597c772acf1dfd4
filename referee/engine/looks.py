"""How a board element looks at a moment of a turn: what of the register phase and of the board state
(:class:`.state.BoardState`) its look depends on, for the pictures.

A kind whose look changes during a turn declares it in its own module, next to its handlers (the way a step
of the timing table is declared there):

    looks.declare("door", lambda el, phase, state: "rest" if not isinstance(phase, int)
                  else "open" if phase in el["open"] else "shut")

``look(el, phase, state)`` gives a small hashable value; ``phase`` is a register phase (1-5), ``"start"`` or
``"end"`` (the pictures before the first register and after the end of the turn), or None (the course as
it lies before any turn, with an empty state). A kind whose state changes also says how each of its events
changes the state (``replay``): the pictures read the state at each of them as the state before the turn
with the events up to it applied (:func:`states`), so the engine keeps no copy of the state per phase.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from .board import Element
from .events import Event
from .state import BoardState

Phase = int | str | None
LookFn = Callable[[Element, Phase, BoardState], Hashable]
ReplayFn = Callable[[BoardState, Event], None]


@dataclass(frozen=True, slots=True)
class Looks:
    """A kind's declaration: its look, and how its events change the state the look reads."""

    look: LookFn
    #: event kind -> how that event changes the board state
    replay: Mapping[str, ReplayFn]


LOOKS: dict[str, Looks] = {}

#: the state of a course before any turn (every kind reads its default)
EMPTY = BoardState()


def declare(kind: str, look: LookFn, replay: Mapping[str, ReplayFn] | None = None) -> None:
    """Declare how ``kind`` looks at a moment of a turn (and how its events change the state it reads)."""
    LOOKS[kind] = Looks(look, dict(replay or {}))


def active_in(field: str) -> LookFn:
    """The look of a kind that acts in the register phases its ``field`` lists: True in those phases."""
    def look(el: Element, phase: Phase, state: BoardState) -> bool:
        return isinstance(phase, int) and phase in el[field]
    return look


def look_of(el: Element, phase: Phase, state: BoardState) -> Hashable:
    """How ``el`` looks in ``phase`` with ``state`` (None: its kind's look never changes)."""
    got = LOOKS.get(el.kind)
    return None if got is None else got.look(el, phase, state)


def resting(el: Element) -> Hashable:
    """How ``el`` looks on the course before any turn."""
    return look_of(el, None, EMPTY)


_ORDER = {"start": 0, "end": 6}


def _rank(phase: int | str) -> int:
    return phase if isinstance(phase, int) else _ORDER.get(phase, 7)


def states(start: BoardState, events: Iterable[Event], phases: Sequence[int | str]) -> list[BoardState]:
    """The board state at the end of each of ``phases`` (in order: ``start``, 1..5, ``end``): ``start`` with
    the events up to then replayed by the kinds that declared how (a state object is shared by pictures
    between which nothing changed)."""
    replays = {name: fn for got in LOOKS.values() for name, fn in got.replay.items()}
    state = start
    copied = False
    out: list[BoardState] = []
    pending = sorted(((_rank(ev.phase), i, ev) for i, ev in enumerate(events) if ev.kind in replays),
                     key=lambda t: (t[0], t[1]))
    k = 0
    for phase in phases:
        rank = _rank(phase)
        while k < len(pending) and pending[k][0] <= rank:
            ev = pending[k][2]
            if not copied:
                state, copied = state.copy(), True
            replays[ev.kind](state, ev)
            k += 1
        out.append(state)
        copied = False
    return out
