"""When an option card is given up instead of taking a hit: ``SACRIFICE AT HP 6``, ``SACRIFICE NEVER``."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..reading import Bad, Line
from .base import Clause

if TYPE_CHECKING:
    from ..parse_state import ParseState

_SACRIFICE = re.compile(r"^SACRIFICE(?:\s+(?:AN?\s+)?OPTIONS?)?(?:\s+(?:AT|FROM|BELOW))?\s*[:=]?\s*"
                        r"(?:HP\s*)?(\d{1,3}|NEVER)(?:\s*HP)?$")
_NEVER_SACRIFICE = re.compile(r"^(?:NEVER|NO|DON'?T|DO\s+NOT)\s+SACRIFICE(?:\s+(?:AN?\s+)?OPTIONS?)?$")


def read(p: ParseState, line: Line) -> bool:
    m = _SACRIFICE.match(line.text)
    if m:
        value = 0 if m.group(1) == "NEVER" else int(m.group(1))
        if m.group(1) != "NEVER" and value == 0:
            raise Bad("at HP 0 your robot is destroyed, so SACRIFICE AT HP 0 would never sacrifice: write "
                      "SACRIFICE NEVER for that, or an HP from 1 to 10")
        if not 0 <= value <= 10:
            raise Bad(f"HP {value} is out of range: write SACRIFICE AT HP 1 to 10, or SACRIFICE NEVER")
        p.standing(line, "sacrifice_at", value)
        return True
    if _NEVER_SACRIFICE.match(line.text):
        p.standing(line, "sacrifice_at", 0)
        return True
    return False


CLAUSE = Clause("sacrifice", read, leads=frozenset({"SACRIFICE"}), pairs=frozenset({("NEVER", "SACRIFICE")}),
                hint="write SACRIFICE AT HP 6 (any HP from 1 to 10) or SACRIFICE NEVER", mentions="SACRIFICE")
