"""Option cards' orders (``BRAKES 3``, ``GYRO ON``, ``RECOMPILE`` ...), read by :mod:`referee.orders.options`."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from .. import options as opt
from ..reading import Bad, Line
from .base import Clause

if TYPE_CHECKING:
    from ..parse_state import ParseState


def reader(read_clause: Callable[[ParseState, str], opt.OptionClause | None]) -> Callable[[ParseState, Line], bool]:
    """A clause's ``read`` for orders that land among the option orders (option cards', board elements'):
    ``read_clause`` gives the order a line holds, None when it holds none, or raises ``OptionBad``."""

    def read(p: ParseState, line: Line) -> bool:
        try:
            clause = read_clause(p, line.text)
        except opt.OptionBad as exc:
            raise Bad(str(exc)) from None
        if clause is None:
            return False
        p.record_option(clause, line)
        return True

    return read


CLAUSE = Clause("option cards", reader(lambda p, text: opt.read_clause(text, p.ctx.options, p.ctx.hand)))
