"""What players are shown of the engine's statuses, causes and steps, declared by the module that makes them.

A module that puts a status on a robot, destroys or damages one for a cause, or turns one in a step of its own
says here, next to its handlers, how a player reads it, as it declares its timing steps and event wordings:

    shown.status(GASSED, "asleep (soporific gas)", given_by="gassed")   # the mode row, "Your robot", the story
    shown.cause("pit", "pit", into="into the pit")                      # "destroyed (pit)", "fell into the pit"
    shown.cause("crusher", "crusher", story="crushed")                  # "destroyed (crusher)", "crushed"
    shown.step("board.gears", "gear")                                   # "face E (gear)"

The report's tables (``render/stage_tables.py``), the story (``render/story.py``) and the answer to STATUS
(``messages/players.py``) read these declarations and nothing else; ``tests/engine/test_shown.py`` walks the
engine and fails on a status or cause it makes that has no declaration. Plain data: nothing here acts.
"""

from __future__ import annotations

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

    @property
    def destroyed(self) -> str:
        return self.story or f"destroyed ({self.table})"


#: every status declared, in the order declared (the order the mode row lists them in)
STATUSES: dict[str, Status] = {}
#: every cause declared
CAUSES: dict[str, Cause] = {}
#: step id -> what a table adds to a robot turned in that step (``gear``: ``face E (gear)``)
STEPS: dict[str, str] = {}


class ShownError(ValueError):
    """A declaration that contradicts another."""


def _add(table: dict[str, _T], key: str, value: _T, what: str) -> None:
    if table.get(key, value) != value:
        raise ShownError(f"{what} {key!r} is already shown as {table[key]!r}")
    table[key] = value


def status(name: str, words: str, *, instead: bool = False, given_by: str = "", taken_by: str = "",
           taken: str = "") -> str:
    """Declare how the status ``name`` is shown (see :class:`Status`); gives back ``name``."""
    _add(STATUSES, name, Status(name, words, instead, given_by, taken_by, taken), "status")
    return name


def cause(name: str, table: str | None = None, *, into: str = "", story: str = "") -> str:
    """Declare how the cause ``name`` is shown (see :class:`Cause`; ``table`` defaults to the name); gives back
    ``name``."""
    if into and story:
        raise ShownError(f"cause {name!r}: a fall says where to (into), anything else what it did (story)")
    _add(CAUSES, name, Cause(name, table or name, into, story), "cause")
    return name


def step(step_id: str, words: str) -> str:
    """Declare what a table adds to a robot turned in the step ``step_id`` (``gear``); gives back the id."""
    _add(STEPS, step_id, words, "step")
    return step_id


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


def given(kind: str) -> Status | None:
    """The status an event of ``kind`` gives, if one is declared so."""
    return next((s for s in STATUSES.values() if s.given_by == kind), None)


def changes() -> dict[str, str]:
    """Event kind -> what the mode row says the robot became: ``flies`` -> ``flying``, ``lands`` -> ``landed``."""
    out = {s.given_by: s.words for s in STATUSES.values() if s.given_by and s.words}
    out.update((s.taken_by, s.ended) for s in STATUSES.values() if s.taken_by)
    return out
