"""What a clause of the order language is (see :mod:`referee.orders.clauses` for the table)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..reading import Line

if TYPE_CHECKING:
    from ..parse_state import ParseState


@dataclass(frozen=True)
class Clause:
    """One family of orders: how its lines are read, and how a line that only looks like one is answered."""

    name: str
    #: read ``line`` into the parser (its result, standing orders, option orders); False: not this
    #: clause's line. Raise :class:`referee.orders.reading.Bad` for a line of this clause that is wrong.
    read: Callable[[ParseState, Line], bool]
    #: first words, and first pairs of words, that make a line an order of this clause: a line led by
    #: them that ``read`` did not take is an error with ``hint``, never prose
    leads: frozenset[str] = frozenset()
    pairs: frozenset[tuple[str, str]] = frozenset()
    hint: str = ""
    #: a regular expression for the clause's words: prose that mentions them is an error, not a guess
    mentions: str | None = None
    #: called once all lines are read, before the program is put together (to put what the clause
    #: gathered in ``parser.scratch[name]`` into the result)
    finish: Callable[[ParseState], None] | None = None


#: the clauses, in the order a line is tried (the first whose ``read`` takes it wins)
CLAUSES: list[Clause] = []


def register(clause: Clause) -> None:
    """Add a clause at the end of the table (:mod:`referee.orders.clauses` calls this once per clause)."""
    if any(c.name == clause.name for c in CLAUSES):
        raise ValueError(f"the order clause {clause.name!r} is registered twice")
    CLAUSES.append(clause)


def lead_hint(line: Line) -> str | None:
    """The hint of the clause whose lead words start ``line`` (None: none does)."""
    for clause in CLAUSES:
        if line.first in clause.leads or line.pair in clause.pairs:
            return clause.hint
    return None


def mentions() -> re.Pattern[str]:
    """The words of every clause, as one pattern (``\\b(?:REBOOT|...)\\b``)."""
    return re.compile(r"\b(?:" + "|".join(c.mentions for c in CLAUSES if c.mentions) + r")\b")
