"""Board elements' choices (``CHOP SHOP: OPTION``, ``RESET CHOOSE: RANDOM`` ...), read by
:mod:`referee.orders.element_clauses`; they land among the option orders."""

from __future__ import annotations

from ..element_clauses import read_element_clause
from .base import Clause
from .option_cards import reader

CLAUSE = Clause("element orders", reader(lambda p, text: read_element_clause(text)))
