"""The order language: a player's program and standing orders, read from plain text.

``parse_orders(text, context)`` reads the lines of one mail (or of its BEGIN ... END block) and
returns an :class:`OrderResult`. It never raises: anything it cannot use becomes an
:class:`OrderError` that names the line. The language is case-insensitive; docs/orders.md is the
player's guide. The choices made here:

* A card is ``FWD2 670`` / ``Move-2 P670`` (type and priority), a priority alone (``670`` or
  ``P670``), a hand position (``3``: the third card of the hand as mailed; hands hold at most nine
  cards, priorities start at 10, so a number is never both), or a type alone (``FWD1``), which takes
  that type's cards in hand order, in register order, after the exactly named cards are placed.
* Registers are either numbered (``1: FWD2 670``, ``a) Move-2 P670``, ``register 3: 4``, several
  on a line) or listed in order, on one line or several (``FWD2 670, FWD1 500, 3, 1, 7``); the two
  may not be mixed. A list fills the free registers in order, or all five when it has five cards
  (locked ones must then repeat the locked card). Locked registers fill themselves; ``5: locked``
  may be written. ``1 FWD2 670`` alone on a line is register 1 (but ``1 670`` and ``1 3`` are two
  cards). Commas always separate cards; ``LF90 40`` is one (wrong) card, not two.
* A mail with any error changes nothing; the reply lists every error at once.
* Outside a BEGIN block, a line that does not read as a program (fewer than half its words name
  cards: :func:`reads_as_program`) and is not led by an order word is prose and is skipped, but
  reported back in ``ignored``: a signature ``A.``, "2 more flags to go.", a phone number. Prose that
  mentions an order word (``I might reboot``) is an error rather than a guess. Inside a block every
  line must be an order (``#`` starts a comment).

The reader is built of small parts: the terms read into (:mod:`.terms`), cards as written
(:mod:`.cardrefs`), one module per kind of order in the clause table (:mod:`.clauses`; its docstring
is the recipe for a new clause: one module, registered by one line), and the line-by-line reader that
puts the program together (:mod:`.parser`).

A new kind of order (say ``CHOP SHOP TAKE <card>``, a board element's choice) is one small module:
``referee/orders/clauses/chop_shop.py`` with ``read(parser, line) -> bool`` and ``CLAUSE = Clause(...)``
(its lead words, the hint for a wrong line, the words prose may not mention); ``register(chop_shop.CLAUSE)``
in ``clauses/__init__.py`` puts it in the table; ``tests/orders/test_clause_chop_shop.py`` tests it. The
details are in :mod:`.clauses`.
"""

from __future__ import annotations

from collections.abc import Sequence

from .cardrefs import reads_as_program
from .parser import Parser
from .reading import normalize_line
from .terms import (
    DEFAULT_SACRIFICE_HP,
    DIRECTION_NAMES,
    DIRECTIONS,
    MAIN_LASER,
    MAX_ERRORS,
    MAX_LINE,
    MAX_LINES,
    OrderContext,
    OrderError,
    OrderResult,
    Register,
    StandingOrders,
    facing_name,
)


def parse_orders(text: str | Sequence[tuple[int, str]], context: OrderContext | None = None, *,
                 strict: bool = False) -> OrderResult:
    """Read orders from ``text`` (a string, or ``(line number, line)`` pairs from :mod:`.extract`).

    ``strict``: every non-blank line must be an order (used inside a BEGIN ... END block).
    Never raises.
    """
    ctx = context or OrderContext()
    try:
        if isinstance(text, str):
            lines = list(enumerate(text.splitlines(), start=1))
        else:
            lines = [(int(n), str(t)) for n, t in text]
    except Exception:   # a caller passing something odd still gets an answer
        return OrderResult(errors=[OrderError(None, "", "the orders could not be read as text")])
    parser = Parser(ctx, strict)
    filled = [(n, t) for n, t in lines if t.strip()]
    if len(filled) > MAX_LINES:
        return OrderResult(errors=[OrderError(filled[MAX_LINES][0], filled[MAX_LINES][1][:80],
                                              f"this mail has {len(filled)} lines to read; orders take far fewer, "
                                              f"so it was not read (at most {MAX_LINES})")])
    for number, raw in lines:
        try:
            parser.line(number, raw)
        except Exception as exc:   # a safety net: a parser bug must not lose the mail
            parser.error(number, raw, f"the referee could not read this line (internal error: {type(exc).__name__})")
    try:
        result = parser.finish()
    except Exception as exc:
        result = parser.result
        result.registers = None
        parser.error(None, "", f"the referee could not assemble the program (internal error: {type(exc).__name__})")
    if len(result.errors) > MAX_ERRORS:
        extra = len(result.errors) - MAX_ERRORS
        result.errors = [*result.errors[:MAX_ERRORS], OrderError(None, "", f"... and {extra} more errors")]
    if result.errors:
        result.registers = None
    return result


__all__ = ["DEFAULT_SACRIFICE_HP", "DIRECTIONS", "DIRECTION_NAMES", "MAIN_LASER", "MAX_ERRORS", "MAX_LINE",
           "MAX_LINES", "OrderContext", "OrderError", "OrderResult", "Register", "StandingOrders", "facing_name",
           "normalize_line", "parse_orders", "reads_as_program"]
