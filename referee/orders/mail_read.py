"""The one read of a mail's text, before anyone knows whose robot it is about: what the sender wrote and,
when her own text holds no orders, the order form she filled in within the quoted turn mail (the reply
model's rules, :mod:`.reply_model`, through :mod:`.extract`). Pure: the intake reads a mail once
(:func:`read_reply`), names the robot from what was read, and the use case reads the orders from it with
the robot's hand (:meth:`MailRead.orders`) without finding them in the text again.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

from .extract import Extracted, check_header, extract
from .language import OrderContext, OrderError, OrderResult, parse_orders
from .replies import vocabulary_of
from .reply_model import Replied

NOTHING_FOUND = "I found no orders in this mail"


def orders_of(found: Extracted, context: OrderContext | None, own: Callable[[], Extracted], *,
              game: str | None = None, robot: str | None = None, turn: int | None = None, key: str | None = None,
              require_key: bool = False) -> tuple[Extracted, OrderResult]:
    """Read the orders found in a mail (``found``; ``own()``: what the sender wrote, wanted when ``found`` is
    a quoted form). See :func:`referee.orders.read_orders`."""
    if found.from_quote:   # the new text always wins: with orders of its own, no quoted form is read
        mine = own()
        said = parse_orders(mine.lines, context, strict=mine.in_block)
        if said.program_given or not said.standing.is_empty() or said.option_orders:
            found = mine
    result = parse_orders(found.lines, context, strict=found.in_block)
    if found.outside:
        stray = parse_orders(found.outside, context)
        if stray.program_given or stray.commands or not stray.standing.is_empty() or stray.option_orders:
            found.notes.append("only the BEGIN ... END block was read; the orders written outside it were not")
    errors = list(found.errors)
    if found.header is not None:
        errors += check_header(found.header, game=game, robot=robot, turn=turn, key=key, require_key=require_key)
    if not errors and not result.errors and not result.program_given and not result.commands \
            and result.standing.is_empty() and not result.option_orders:
        errors.append(_run_together(found.lines, context) or OrderError(None, "", NOTHING_FOUND))
    if errors:
        result.errors = errors + result.errors
        result.registers = None
    return found, result


#: a line of card numbers written without anything between them (``51923``)
_DIGITS = re.compile(r"\s*([1-9]{3,9})\s*\.?\s*")


def _run_together(lines: list[tuple[int, str]], context: OrderContext | None) -> OrderError | None:
    """A line that is only card numbers run together, read as what it says and not taken: the answer says
    what was read and asks "did you mean 5, 1, 9, 2, 3?" (never a guess taken as orders)."""
    size = len(context.hand) if context is not None and context.hand else 9
    for number, text in lines:
        m = _DIGITS.fullmatch(text)
        if m and all(int(d) <= size for d in m.group(1)):
            meant = ", ".join(m.group(1))
            return OrderError(number, text.strip(), f"I read \"{m.group(1)}\" as one number, not as cards, so "
                              f"nothing was taken: did you mean {meant}? Write the card numbers with commas or "
                              f"spaces between them, e.g. {meant}")
    return None


@dataclass
class MailRead:
    """A mail's text read once: what the sender wrote (``own``) and the quoted order form (``form``)."""

    #: the mail's text ("" when it has none)
    text: str
    replied: Replied | None
    #: the orders found in what the sender wrote (the BEGIN line, if any, names game and robot)
    own: Extracted
    #: the order form she filled in within the quoted turn mail, with its BEGIN line, when her own text holds
    #: no orders: it counts only for the robot its BEGIN line names, with the key or her reply address
    form: Extracted | None = None

    @cached_property
    def vocabulary(self) -> str:
        """The card spelling she used, to answer in kind."""
        return vocabulary_of(self.text)

    def orders(self, context: OrderContext | None, *, quoted: bool = False, game: str | None = None,
               robot: str | None = None, turn: int | None = None,
               key: str | None = None) -> tuple[Extracted, OrderResult]:
        """Read the orders with the robot's hand (``quoted``: from the quoted form), as
        :func:`referee.orders.read_orders` reads the text; what was read once is not changed."""
        found = copy.deepcopy(self.form if quoted and self.form is not None else self.own)
        return orders_of(found, context, lambda: copy.deepcopy(self.own), game=game, robot=robot, turn=turn,
                         key=key)


def read_reply(text: str | None, replied: Replied | None = None) -> MailRead:
    """Read a mail's text once (``replied``: the referee's mail it answers, for the reply model)."""
    body = text or ""
    own = extract(body, replied=replied)
    return MailRead(body, replied, own, _quoted_form(body, own, replied))


def _quoted_form(text: str, own: Extracted, replied: Replied | None) -> Extracted | None:
    """The filled-in form within the quote, when the sender's own text has no orders (program or standing
    orders) and no BEGIN line of its own (extract's rule 6)."""
    if own.header is not None or not own.quoted_block or not text:
        return None
    said = orders_of(extract("\n".join(line for _, line in own.lines)), None, lambda: Extracted())[1]
    if said.program_given or not said.standing.is_empty():
        return None
    form = extract(text, quoted_form=True, replied=replied)
    return form if form.from_quote and form.header is not None else None
