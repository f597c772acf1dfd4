"""HELP, STATUS, CARDS, PREVIEW, HINT (each answered once, in the order asked); END; a stray BEGIN line."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..reading import Bad, Line
from .base import Clause

if TYPE_CHECKING:
    from ..parse_state import ParseState

_COMMAND = re.compile(r"^(?:PLEASE\s+)?(HELP|STATUS|CARDS|PREVIEW|HINT)S?(?:\s+PLEASE)?$")


def read(p: ParseState, line: Line) -> bool:
    m = _COMMAND.match(line.bare)
    if m:
        if m.group(1).lower() not in p.result.commands:
            p.result.commands.append(m.group(1).lower())
        return True
    if line.bare == "END":
        return True
    if line.first == "BEGIN":
        raise Bad("a BEGIN line reads BEGIN <game> <robot> TURN <n>, optionally followed by KEY <key>, "
                  "e.g. BEGIN RR-7 Twonky TURN 4 KEY 8f3k2q")
    return False


CLAUSE = Clause("commands", read)
