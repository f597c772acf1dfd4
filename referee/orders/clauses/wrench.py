"""What a robot takes on a two-wrench site: ``ON TWO WRENCHES: REPAIR`` or ``... OPTION`` (``DRAW``, ``DRAW AN
OPTION`` and ``TAKE AN OPTION`` say OPTION). ``TAKE OPTION`` or ``DRAW OPTION`` alone says where the choice goes."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..reading import Bad, Line
from .base import Clause

if TYPE_CHECKING:
    from ..parse_state import ParseState

_WRENCH = re.compile(r"^(?:ON\s+(?:A\s+)?)?(?:TWO|2|DOUBLE)[\s-]*WRENCH(?:ES)?(?:\s+SITES?)?\s*[:=-]?\s*"
                     r"(REPAIRS?|OPTIONS?|DRAW(?:\s+(?:AN?\s+)?OPTION)?|TAKE\s+(?:AN?\s+)?OPTION)$")


def read(p: ParseState, line: Line) -> bool:
    m = _WRENCH.match(line.text)
    if not m:
        if _TAKE.match(line.text):
            raise Bad("an option card is drawn on a two-wrench site or a chop shop: write ON TWO WRENCHES: OPTION "
                      "(kept until changed) or CHOP SHOP: OPTION (this turn)")
        return False
    p.standing(line, "two_wrenches", "repair" if m.group(1).startswith("REPAIR") else "option")
    return True


_TAKE = re.compile(r"^(?:TAKE|DRAW|GET)\s+(?:AN?\s+|THE\s+)?OPTION(?:\s+CARD)?S?$")


CLAUSE = Clause("two wrenches", read,
                pairs=frozenset({("ON", "TWO"), ("ON", "2"), ("ON", "DOUBLE"), ("TWO", "WRENCHES"),
                                 ("2", "WRENCHES"), ("DOUBLE", "WRENCH")}),
                hint="write ON TWO WRENCHES: REPAIR or ON TWO WRENCHES: OPTION", mentions=r"WRENCH(?:ES)?")
