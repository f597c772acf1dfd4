"""What players are shown of the engine's statuses, causes and steps, declared by the module that makes them.

A module that puts a status on a robot, destroys or damages one for a cause, or turns one in a step of its own
says here, next to its handlers, how a player reads it, as it declares its timing steps and event wordings:

    shown.status(GASSED, "asleep (soporific gas)", given_by="gassed", mark="Z", kinds=("soporific_gas",))
                                          # the mode row, "Your robot", the story; its mark on the robot, the key
    shown.cause("pit", "pit", into="into the pit")                      # "destroyed (pit)", "fell into the pit"
    shown.cause("crusher", "crusher", story="crushed")                  # "destroyed (crusher)", "crushed"
    shown.step("board.gears", "gear")                                   # "face E (gear)"
    shown.mover("pulled", "magnet", "pulled by a magnet", step="board.magnets")   # what moved a robot
    shown.told("repair", "repair site", "at a repair site", on="repair")           # what did something else
    shown.actor("ghost", "{owner}'s ghost", kinds=("ghost moves", ...))  # events that are a ghost's, not a robot's
    shown.said("flag", "touched flag {number}", register=True)      # what the story says of any other event
    shown.said("register locked", with_hits=True)                   # told with the hits: a register lost
    shown.untold("face", "the position line tells where it faces")  # the story leaves it to the tables: why

The report's tables (``render/stage_tables.py``), the story (``render/story.py``) and the answer to STATUS
(``messages/players.py``) read these declarations and nothing else; ``tests/engine/test_shown.py`` walks the
engine and fails on a status or cause it makes that has no declaration, and on an event kind that nothing declares
(what moved the robot, what the story says of it, whose thing did it, the status it gives or takes, or why the
story leaves it out). Plain data: nothing here acts.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import TypeVar

_T = TypeVar("_T")


@dataclass(frozen=True, slots=True)
class Status:
    """How a status a robot carries (a name in ``Robot.statuses``) is shown."""

    name: str
    #: the robot's state in words: the report's mode row, "Your robot" in STATUS, the story's "Now" line;
    #: "" for a status only the engine needs (nothing shows it)
    words: str
    #: the words stand instead of the robot's ``real``/``virtual`` (a tamagotchi), not after them
    instead: bool = False
    #: the event kind that gives the status: the mode row says ``-> <words>`` there, the story tells it
    given_by: str = ""
    #: the event kind that ends it, and what the mode row and the story say then (default ``no longer <words>``)
    taken_by: str = ""
    taken: str = ""
    #: what the pictures draw on a robot carrying it (one or two characters on a chip, ``Z``), and the key lists;
    #: every status with words has one
    mark: str = ""
    #: the element kinds that give it: the key of a course lists its mark when one of them is on it; () for a
    #: status any robot may come to carry (an option card's)
    kinds: tuple[str, ...] = ()

    @property
    def ended(self) -> str:
        return self.taken or f"no longer {self.words}"


@dataclass(frozen=True, slots=True)
class Cause:
    """How a cause of damage or destruction (an event's ``cause``) is shown."""

    name: str
    #: what a table says after ``destroyed`` or ``-2 HP``: ``destroyed (off the edge)``
    table: str
    #: a fall: where to, as the story tells it after ``fell``, ``drove`` or ``pushed by Twonky`` (``into the pit``)
    into: str = ""
    #: else what the story calls a destruction by it (``crushed``); default ``destroyed (<table>)``
    story: str = ""
    #: what the story's list of hits calls a hit dealt by a robot (an event's ``by`` naming one):
    #: ``{by}'s laser``; a hit by an element (``by``: ``turret r6c6``) is named by its ``by`` (``turret at r6c6``),
    #: one by nothing named by the cause (``table``)
    hit: str = ""

    @property
    def destroyed(self) -> str:
        return self.story or f"destroyed ({self.table})"


@dataclass(frozen=True, slots=True)
class Told:
    """What did an event of ``kind`` to a robot: what moved it (an event that moves one, its wording names ``{to}``:
    :func:`mover`), or where a repair came from (:func:`told`)."""

    kind: str
    #: what a table adds to the event in brackets: ``pulled to r4c5 (magnet)``; "" when the event's words say it
    #: (``conveyed to r4c5``)
    what: str
    #: how the story says it: after how many squares for a move (``3 pulled by a magnet``), after the event's own
    #: words else (``repaired 1 at a repair site``); ``{by}`` is the robot the event's ``by`` names
    story: str
    #: only for events logged in this step of the timing table (its id: ``board.magnets``), "" any
    step: str = ""
    #: only for a robot that stood on this element kind before it moved (a piston it slides off), "" any
    on: str = ""
    #: only for events whose ``by`` is this (a pusher's push: ``pusher``), "" any
    by: str = ""
    #: the event moves the robot (the story counts its squares)
    moves: bool = True

    @property
    def specific(self) -> int:
        """How many conditions it has: the most specific declaration that fits an event is the one told."""
        return bool(self.step) + bool(self.on) + bool(self.by)


@dataclass(frozen=True, slots=True)
class Actor:
    """Events that tell what a thing belonging to a robot does (a ghost), not the robot itself: logged with no
    robot and the data key ``key`` naming the robot it belongs to (or, in turns stored before, under that robot)."""

    key: str
    #: what the report calls the thing: ``{owner}'s ghost``; a hit it deals names it so (an event's ``by``:
    #: ``Zoom's ghost r6c7``), which is how its owner's story finds what it did
    words: str
    kinds: tuple[str, ...]
    #: what its owner's story calls it (default ``your <key>``)
    own: str = ""

    @property
    def yours(self) -> str:
        return self.own or f"your {self.key}"

    def dealt_by(self, owner: str, by: str) -> bool:
        """Whether a hit whose ``by`` is ``by`` was dealt by ``owner``'s thing (``Zoom's ghost r6c7``)."""
        named = self.words.format(owner=owner)
        return by == named or by.startswith(named + " ")


@dataclass(frozen=True, slots=True)
class Said:
    """What the story says of an event of ``kind`` that no :class:`Told`, :class:`Status` or :class:`Cause` tells."""

    kind: str
    #: ``str.format`` templates over the event's args and data; the story tells the first whose keys the event
    #: has (``re-entered at {at} facing {facing}``, then ``re-entered at {at}``); none with ``with_hits``
    stories: tuple[str, ...] = ()
    #: the story adds `` in register N`` to an event logged in a register
    register: bool = False
    #: a register lost (locked, melted, scrambled): told after the hits, in the event's own words, by whom
    with_hits: bool = False
    #: why the story leaves it out (the tables tell it, or another line of the story does); "" when it tells it
    untold: str = ""


#: every status declared, in the order declared (the order the mode row lists them in)
STATUSES: dict[str, Status] = {}
#: every cause declared
CAUSES: dict[str, Cause] = {}
#: step id -> what a table adds to a robot turned in that step (``gear``: ``face E (gear)``)
STEPS: dict[str, str] = {}
#: event kind -> the declarations of what did an event of that kind to a robot (what moved it...)
TOLD: dict[str, list[Told]] = {}
#: event kind -> the actor whose events of that kind are
ACTORS: dict[str, Actor] = {}
#: event kind -> what the story says of it (or why it says nothing)
SAID: dict[str, Said] = {}


class ShownError(ValueError):
    """A declaration that contradicts another."""


def _add(table: dict[str, _T], key: str, value: _T, what: str) -> None:
    if table.get(key, value) != value:
        raise ShownError(f"{what} {key!r} is already shown as {table[key]!r}")
    table[key] = value


def status(name: str, words: str, *, instead: bool = False, given_by: str = "", taken_by: str = "",
           taken: str = "", mark: str = "", kinds: tuple[str, ...] = ()) -> str:
    """Declare how the status ``name`` is shown (see :class:`Status`); gives back ``name``."""
    if len(mark) > 2 or (mark and not mark.strip()):
        raise ShownError(f"status {name!r}: its mark is one or two characters, not {mark!r}")
    if mark and not words:
        raise ShownError(f"status {name!r}: a status nothing shows has no mark")
    taken_mark = next((s.name for s in STATUSES.values() if mark and s.mark == mark and s.name != name), None)
    if taken_mark is not None:
        raise ShownError(f"status {name!r}: the mark {mark!r} is already {taken_mark!r}'s")
    _add(STATUSES, name, Status(name, words, instead, given_by, taken_by, taken, mark, tuple(kinds)), "status")
    return name


def cause(name: str, table: str | None = None, *, into: str = "", story: str = "", hit: str = "") -> str:
    """Declare how the cause ``name`` is shown (see :class:`Cause`; ``table`` defaults to the name); gives back
    ``name``."""
    if into and story:
        raise ShownError(f"cause {name!r}: a fall says where to (into), anything else what it did (story)")
    _add(CAUSES, name, Cause(name, table or name, into, story, hit), "cause")
    return name


def mover(kind: str, what: str, story: str, *, step: str = "", on: str = "", by: str = "") -> str:
    """Declare what moved a robot in an event of ``kind`` (see :class:`Told`): ``what`` for the tables, ``story``
    for the story; ``step``, ``on`` and ``by`` narrow it to the events of a step, of robots that stood on an
    element kind, or pushed by something. Gives back ``kind``."""
    return _told(Told(kind, what, story, step, on, by, moves=True))


def told(kind: str, what: str, story: str, *, step: str = "", on: str = "", by: str = "") -> str:
    """Declare what did an event of ``kind`` that does not move a robot (a repair: ``at a repair site``), as
    :func:`mover` does for moves. Gives back ``kind``."""
    return _told(Told(kind, what, story, step, on, by, moves=False))


def _told(found: Told) -> str:
    declared = TOLD.setdefault(found.kind, [])
    same = next((m for m in declared if (m.step, m.on, m.by) == (found.step, found.on, found.by)), None)
    if same is not None and same != found:
        raise ShownError(f"what did {found.kind!r} ({found.step or 'any step'}, on {found.on or 'anything'}, by "
                         f"{found.by or 'anyone'}) is already shown as {same.story!r}")
    if same is None:
        declared.append(found)
    return found.kind


def actor(key: str, words: str, *, kinds: tuple[str, ...], own: str = "") -> str:
    """Declare that events of ``kinds`` tell what a thing of a robot does (see :class:`Actor`); gives back ``key``."""
    found = Actor(key, words, kinds, own)
    for kind in kinds:
        _add(ACTORS, kind, found, "actor of")
    return key


def said(kind: str, *stories: str, register: bool = False, with_hits: bool = False) -> str:
    """Declare what the story says of an event of ``kind`` (see :class:`Said`); gives back ``kind``."""
    if bool(stories) == with_hits:
        raise ShownError(f"what the story says of {kind!r}: its words, or with_hits (the event's own words)")
    _add(SAID, kind, Said(kind, stories, register, with_hits), "story of")
    return kind


def untold(kind: str, why: str) -> str:
    """Declare that the story leaves events of ``kind`` out, and why (``the stage tables show it``); gives back
    ``kind``."""
    if not why:
        raise ShownError(f"the story leaves {kind!r} out: say why")
    _add(SAID, kind, Said(kind, untold=why), "story of")
    return kind


def saying(kind: str, values: dict[str, object], phase: int | str) -> str:
    """What the story says of an event of ``kind`` with these args and data, logged in ``phase``: its declared
    words, ``touched flag 2 in register 4``; "" when it declares none (or none the event has the keys of)."""
    found = SAID.get(kind)
    if found is None:
        return ""
    for template in found.stories:
        try:
            text = template.format(**values)
        except (KeyError, IndexError):
            continue
        return text + (f" in register {phase}" if found.register and isinstance(phase, int) else "")
    return ""


def step(step_id: str, words: str) -> str:
    """Declare what a table adds to a robot turned in the step ``step_id`` (``gear``); gives back the id."""
    _add(STEPS, step_id, words, "step")
    return step_id


def told_by(kind: str, step: str, on: Collection[str], by: str,
            label: Callable[[str], str] = str) -> Told | None:
    """The most specific declaration of what did an event of ``kind`` logged in step ``step`` (an event's step: the
    ``label`` of a step id), by ``by``, to a robot that stood on the element kinds ``on``; None when none fits."""
    fits = [m for m in TOLD.get(kind, ()) if (not m.step or label(m.step) == step) and (not m.on or m.on in on)
            and (not m.by or m.by == by)]
    return max(fits, key=lambda m: m.specific, default=None)


def actors() -> list[Actor]:
    """Every actor declared, once each."""
    return list({a.key: a for a in ACTORS.values()}.values())


def owner(kind: str, robot: str | None, data: dict[str, object] | None) -> tuple[str, Actor] | None:
    """(the robot it belongs to, the actor) when an event of ``kind`` tells what a robot's thing did (a ghost):
    its data names the robot (``ghost``), or, in a turn stored before, it was logged under the robot."""
    found = ACTORS.get(kind)
    if found is None:
        return None
    named = (data or {}).get(found.key)
    who = named if isinstance(named, str) else robot
    return (who, found) if who else None


def mode_words(statuses: set[str] | frozenset[str], base: str) -> str:
    """A robot's mode: ``base`` (``real``, ``virtual``) or the first status shown instead of it, then the other
    statuses it carries that are shown, in the order declared: ``virtual, flying``."""
    shown = [s for s in STATUSES.values() if s.name in statuses and s.words]
    instead = next((s for s in shown if s.instead), None)
    head = instead.words if instead is not None else base
    return ", ".join([head, *(s.words for s in shown if not s.instead)])


def carried(statuses: set[str] | frozenset[str]) -> list[str]:
    """The words of the statuses shown that a robot carries, in the order declared (STATUS, the story)."""
    return [s.words for s in STATUSES.values() if s.name in statuses and s.words]


def marked(statuses: Collection[str]) -> list[Status]:
    """The statuses a robot carries that the pictures mark on it, in the order declared."""
    return [s for s in STATUSES.values() if s.name in statuses and s.mark]


def keyed(kinds: Collection[str]) -> list[Status]:
    """The marked statuses a robot may carry on a course with these element kinds (the key lists them): those an
    element on it gives, and those of no element (an option card's), in the order declared."""
    return [s for s in STATUSES.values() if s.mark and (not s.kinds or any(k in kinds for k in s.kinds))]


def given(kind: str) -> Status | None:
    """The status an event of ``kind`` gives, if one is declared so."""
    return next((s for s in STATUSES.values() if s.given_by == kind), None)


def changes() -> dict[str, str]:
    """Event kind -> what the mode row says the robot became: ``flies`` -> ``flying``, ``lands`` -> ``landed``."""
    out = {s.given_by: s.words for s in STATUSES.values() if s.given_by and s.words}
    out.update((s.taken_by, s.ended) for s in STATUSES.values() if s.taken_by)
    return out
