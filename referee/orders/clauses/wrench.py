"""What a robot takes on a two-wrench site: ``ON TWO WRENCHES: REPAIR`` or ``... OPTION``."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..reading import Line
from .base import Clause

if TYPE_CHECKING:
    from ..parser import Parser

_WRENCH = re.compile(r"^(?:ON\s+(?:A\s+)?)?(?:TWO|2|DOUBLE)[\s-]*WRENCH(?:ES)?(?:\s+SITES?)?\s*[:=-]?\s*"
                     r"(REPAIRS?|OPTIONS?)$")


def read(p: Parser, line: Line) -> bool:
    m = _WRENCH.match(line.text)
    if not m:
        return False
    p.standing(line, "two_wrenches", "repair" if m.group(1).startswith("REPAIR") else "option")
    return True


CLAUSE = Clause("two wrenches", read,
                pairs=frozenset({("ON", "TWO"), ("ON", "2"), ("ON", "DOUBLE"), ("TWO", "WRENCHES"),
                                 ("2", "WRENCHES"), ("DOUBLE", "WRENCH")}),
                hint="write ON TWO WRENCHES: REPAIR or ON TWO WRENCHES: OPTION", mentions=r"WRENCH(?:ES)?")
