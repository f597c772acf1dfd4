"""Power down next turn: ``REBOOT`` / ``POWER DOWN``, called off with ``NO REBOOT``."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..reading import Bad, Line
from .base import Clause

if TYPE_CHECKING:
    from ..parse_state import ParseState

_POWER = re.compile(r"^(?:REBOOT|POWER[\s-]*DOWN)(?:\s+(?:FOR\s+)?(?:THE\s+)?NEXT\s+TURN)?$")
_NO_POWER = re.compile(r"^(?:NO|DON'?T|DO\s+NOT|CANCEL(?:\s+THE)?)\s+(?:REBOOT|POWER[\s-]*DOWN)"
                       r"(?:\s+(?:FOR\s+)?(?:THE\s+)?NEXT\s+TURN)?$")


_ANSWERED = re.compile(r"^(?:REBOOT|POWER[\s-]*DOWN)\s*[:=?-]?\s*"
                       r"(?P<yes>YES|Y|ON|TRUE|PLEASE)?(?P<no>NO|N|OFF|FALSE|NOPE)?\s*[.!]?$")


def read(p: ParseState, line: Line) -> bool:
    m = _ANSWERED.match(line.text)
    if m and (m.group("yes") or m.group("no")):   # "Reboot: yes", "Power down: no", as on a form
        p.standing(line, "power_down", bool(m.group("yes")))
        return True
    if _POWER.match(line.text):
        p.standing(line, "power_down", True)
        return True
    if _NO_POWER.match(line.text):
        p.standing(line, "power_down", False)
        return True
    if line.bare == "CANCEL":
        raise Bad("CANCEL what? To call off a power down write NO REBOOT")
    return False


CLAUSE = Clause("power down", read,
                leads=frozenset({"REBOOT", "POWERDOWN", "POWER-DOWN", "CANCEL"}),
                pairs=frozenset({("NO", "REBOOT"), ("NO", "POWER"), ("NO", "POWERDOWN"), ("POWER", "DOWN"),
                                 ("DON'T", "REBOOT")}),
                hint="write REBOOT (or POWER DOWN) to power down next turn, NO REBOOT to call it off",
                mentions=r"REBOOT|POWER[\s-]*DOWN")
