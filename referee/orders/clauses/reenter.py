"""The facing a destroyed robot re-enters with: ``REENTER FACING N`` (or E, S, W)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..reading import Bad, Line, short
from ..terms import DIRECTIONS
from .base import Clause

if TYPE_CHECKING:
    from ..parse_state import ParseState

_REENTER = re.compile(r"^RE-?ENT(?:ER|RY)(?:\s+FACING)?\s*[:=]?\s*([A-Z]+)$")


def read(p: ParseState, line: Line) -> bool:
    m = _REENTER.match(line.text)
    if not m:
        return False
    facing = DIRECTIONS.get(m.group(1))
    if facing is None:
        raise Bad(f"{short(m.group(1), 20)!r} is not a facing: write REENTER FACING N, E, S or W")
    p.standing(line, "reenter_facing", facing)
    return True


CLAUSE = Clause("re-entry", read, leads=frozenset({"REENTER", "RE-ENTER", "REENTRY", "RE-ENTRY"}),
                hint="write REENTER FACING N (or E, S, W)", mentions=r"RE-?ENTER|RE-?ENTRY")
