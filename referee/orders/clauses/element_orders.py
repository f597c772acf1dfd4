"""Board elements' choices (``CHOP SHOP: OPTION``, ``RESET CHOOSE: RANDOM`` ...), read by
:mod:`referee.orders.element_clauses`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import options as opt
from ..element_clauses import read_element_clause
from ..reading import Bad, Line
from .base import Clause

if TYPE_CHECKING:
    from ..parser import Parser


def read(p: Parser, line: Line) -> bool:
    try:
        clause = read_element_clause(line.text)
    except opt.OptionBad as exc:
        raise Bad(str(exc)) from None
    if clause is None:
        return False
    p.record_option(clause, line)
    return True


CLAUSE = Clause("element orders", read)
