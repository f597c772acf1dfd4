"""What the order reader needs from one incoming mail (:class:`MailText`), as :mod:`.mailtext` reads it and
:mod:`.mail_body` fills in its body."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class MailText:
    """What the order reader needs from one incoming mail."""

    #: the From address (lower case), None when there is none that can be read
    sender: str | None = None
    sender_name: str = ""
    message_id: str | None = None
    subject: str = ""
    in_reply_to: str | None = None
    references: tuple[str, ...] = ()
    reply_to: str | None = None
    #: To, Cc, Delivered-To and X-Original-To addresses (lower case): where a plus-address token rides
    recipients: tuple[str, ...] = ()
    #: header name (lower case) -> every value, for :func:`loop_reason`
    loop_headers: dict[str, tuple[str, ...]] = field(default_factory=dict)
    body: str = ""
    #: "text/plain", "text/html" or "" (no body read)
    body_type: str = ""
    #: why the mail was not read (too big, no text, unreadable); None when ``body`` holds its text
    rejected: str | None = None
    #: what was noticed on the way (charset fallbacks, attachments skipped)
    notes: list[str] = field(default_factory=list)
    size: int = 0
