"""Option cards' orders (``BRAKES 3``, ``GYRO ON``, ``RECOMPILE`` ...), read by :mod:`referee.orders.options`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import options as opt
from ..reading import Bad, Line
from .base import Clause

if TYPE_CHECKING:
    from ..parser import Parser


def read(p: Parser, line: Line) -> bool:
    try:
        clause = opt.read_clause(line.text, p.ctx.options, p.ctx.hand)
    except opt.OptionBad as exc:
        raise Bad(str(exc)) from None
    if clause is None:
        return False
    p.record_option(clause, line)
    return True


CLAUSE = Clause("option cards", read)
