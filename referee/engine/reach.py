"""How far an element acting at a distance reaches, declared in its own module (issue 44).

A kind whose effect lands on robots away from its square says so next to its handlers:

    reach.declare("magnet", reach.Reach(reach.OWN_BOARD, "14.8", wider="magnet_whole_line"))

``scope`` is one of :data:`SCOPES`: ``own board`` (the board of a course the element lies on: a line is cut
where another board begins, :meth:`.board.Board.within_part`), ``squares`` (a fixed count, ``squares``),
``line of sight`` (along its line up to a wall or a robot, across boards as a laser's beam) or ``whole
course``. ``ruling`` is the number in docs/rulings.md that says which reach the rule text gives; ``wider`` the
house rule, if any, that lets it reach farther (the old reading). ``referee board kinds`` and the docs read
:data:`REACHES`; a test checks every declaration names a registered kind and a ruling the doc has.
"""

from __future__ import annotations

from dataclasses import dataclass

OWN_BOARD, SQUARES, LINE_OF_SIGHT, WHOLE_COURSE = "own board", "squares", "line of sight", "whole course"
SCOPES = (OWN_BOARD, SQUARES, LINE_OF_SIGHT, WHOLE_COURSE)


@dataclass(frozen=True, slots=True)
class Reach:
    """A kind's reach: its scope, the ruling saying why, and what it means in words."""

    scope: str
    ruling: str
    #: for ``squares``: how many (None: as many as the card says, ``what`` tells how)
    squares: int | None = None
    #: the house rule widening it to the whole line of the course (the older reading), if any
    wider: str | None = None
    #: a few words on what reaches (``pulls robots in its row and column``)
    what: str = ""

    def __post_init__(self) -> None:
        if self.scope not in SCOPES:
            raise ValueError(f"reach scope must be one of {', '.join(SCOPES)}, not {self.scope!r}")
        if self.squares is not None and self.scope != SQUARES:
            raise ValueError("only a reach of squares names how many")


#: kind -> its reach
REACHES: dict[str, Reach] = {}


def declare(kind: str, reach: Reach) -> None:
    """Declare how far ``kind`` acts."""
    if kind in REACHES:
        raise ValueError(f"reach of {kind!r} declared twice")
    REACHES[kind] = reach
