"""Orders by mail, the pure half: mail text, finding the orders, the order language, the answers.

Nothing here touches a mail server, a database or the clock. The usual path for one mail::

    mail = read_mail(raw)                  # mailtext: sender, ids, body text (or a rejection)
    if loop_reason(mail, LOOP_ID): ...     # never answer robots, bounces and lists
    found, result = read_orders(mail.body, context, game=..., robot=..., turn=..., key=...)
    render_echo(...) if result.ok else render_rejection(result.errors, ...)
"""

from __future__ import annotations

from .extract import BlockHeader, Extracted, begin_line, check_header, extract
from .language import (
    DEFAULT_SACRIFICE_HP,
    MAIN_LASER,
    OrderContext,
    OrderError,
    OrderResult,
    Register,
    StandingOrders,
    parse_orders,
)
from .mail_fields import MailText
from .mail_read import NOTHING_FOUND, MailRead, orders_of, read_reply
from .mailtext import DEFAULT_MAX_BYTES, GAME_HEADER, loop_reason, outgoing_headers, read_mail
from .replies import (
    ReplyLimiter,
    format_time_left,
    help_text,
    program_block,
    render_cards,
    render_echo,
    render_rejection,
    render_unreadable,
    vocabulary_of,
)
from .reply_model import Replied


def read_orders(text: str, context: OrderContext | None = None, *, game: str | None = None,
                robot: str | None = None, turn: int | None = None, key: str | None = None,
                require_key: bool = False, quoted_form: bool = False,
                replied: Replied | None = None) -> tuple[Extracted, OrderResult]:
    """Find the orders in a mail body and read them. Never raises.

    When the orders come in a BEGIN block, its line is checked against ``game``, ``robot``, ``turn``
    and ``key`` (those given). Every error (from the block, its BEGIN line and the language) ends up
    in ``result.errors``; a mail with nothing to read at all gets the error ``NOTHING_FOUND``
    (``found.quoted_block`` then tells whether it only quoted a block, for the reply's hint).
    """
    found = extract(text, quoted_form=quoted_form, replied=replied)
    return orders_of(found, context, lambda: extract(text, replied=replied), game=game, robot=robot, turn=turn,
                     key=key, require_key=require_key)


__all__ = [
    "DEFAULT_MAX_BYTES",
    "DEFAULT_SACRIFICE_HP",
    "GAME_HEADER",
    "MAIN_LASER",
    "NOTHING_FOUND",
    "BlockHeader",
    "Extracted",
    "MailRead",
    "MailText",
    "OrderContext",
    "OrderError",
    "OrderResult",
    "Register",
    "ReplyLimiter",
    "StandingOrders",
    "begin_line",
    "check_header",
    "extract",
    "format_time_left",
    "help_text",
    "loop_reason",
    "outgoing_headers",
    "parse_orders",
    "program_block",
    "read_mail",
    "read_orders",
    "read_reply",
    "render_cards",
    "render_echo",
    "render_rejection",
    "render_unreadable",
    "vocabulary_of",
]
