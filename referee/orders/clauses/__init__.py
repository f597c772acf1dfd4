"""The clause table of the order language: every kind of order besides the program, one module each.

A line of orders is tried against the clauses in the order they are registered below; the first whose
``read`` takes it wins. A line no clause takes is read as a register or a list of cards (the program,
:mod:`referee.orders.parser`), else as prose (outside a BEGIN block) or an error.

Adding a clause (say ``CHOP SHOP TAKE <card>`` for a board element's choice):

1. Write ``referee/orders/clauses/chop_shop.py`` with a ``read(parser, line) -> bool`` that matches
   ``line.text`` (normalized, upper case), raises :class:`referee.orders.reading.Bad` with a message
   for the player when the line is its own but wrong, and records what it read: a standing order
   with ``parser.standing(line, key, value)``, a choice for this turn or a standing one with
   ``parser.record_option(OptionClause(subject, value, registers, standing), line)`` (it lands in
   ``result.option_orders`` or ``result.standing.options``, checked for contradictions), or its own
   gathering in ``parser.scratch[name]`` put into the result by a ``finish(parser)`` hook. End it with
   ``CLAUSE = Clause("chop shop", read, leads=..., hint=..., mentions=...)``: ``leads`` (first words)
   and ``hint`` make a line led by its words that ``read`` refused an error with that hint rather than
   prose; ``mentions`` does the same for prose that names the clause's words.
2. Register it with one line below (import it in the list, then ``register(chop_shop.CLAUSE)``).
3. Give it a test file ``tests/orders/test_clause_chop_shop.py`` (a mail's lines, then what is read).
"""

from . import (
    commands,
    element_orders,
    fire,
    option_cards,
    power,
    reenter,
    sacrifice,
    wrench,
)
from .base import CLAUSES, Clause, register

register(commands.CLAUSE)
register(option_cards.CLAUSE)
register(element_orders.CLAUSE)
register(power.CLAUSE)
register(sacrifice.CLAUSE)
register(wrench.CLAUSE)
register(reenter.CLAUSE)
register(fire.CLAUSE)

__all__ = ["CLAUSES", "Clause", "register"]
