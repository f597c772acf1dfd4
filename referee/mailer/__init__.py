"""Sending the outbox: SMTP (aiosmtplib) or a Maildir, retries with backoff, failures told to the GM.

- :func:`send_outbox` (async) / :func:`send_outbox_sync`: one pass over the due mails.
- :class:`RetryPolicy`: tries per pass, backoff between passes, when to give up.
- :mod:`.transports`: :class:`SmtpTransport`, :class:`MaildirTransport`, :func:`transport_for`.
- :mod:`.cli`: ``referee outbox send|list|show|retry``.

Queueing mails is the store's (:func:`referee.store.outbox.enqueue_mail`) and the reports'
(:mod:`referee.reports`) job.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .outbox import (
        DEFAULT_POLICY,
        KIND_FAILURE,
        RetryPolicy,
        SendReport,
        deliver,
        requeue,
        send_outbox,
        send_outbox_sync,
    )
    from .transports import (
        DeliveryError,
        MaildirTransport,
        PermanentError,
        ServerDown,
        SmtpTransport,
        TemporaryError,
        Transport,
        transport_for,
    )

_LAZY = {
    **{n: "outbox" for n in ("DEFAULT_POLICY", "KIND_FAILURE", "RetryPolicy", "SendReport", "deliver", "requeue",
                             "send_outbox", "send_outbox_sync")},
    **{n: "transports" for n in ("DeliveryError", "MaildirTransport", "PermanentError", "ServerDown",
                                 "SmtpTransport", "TemporaryError", "Transport", "transport_for")},
}


def __getattr__(name: str) -> Any:
    # loaded on first use: ``referee`` registers the outbox commands without importing aiosmtplib
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f".{module}", __name__), name)


__all__ = [
    "DEFAULT_POLICY",
    "KIND_FAILURE",
    "DeliveryError",
    "MaildirTransport",
    "PermanentError",
    "RetryPolicy",
    "SendReport",
    "ServerDown",
    "SmtpTransport",
    "TemporaryError",
    "Transport",
    "deliver",
    "requeue",
    "send_outbox",
    "send_outbox_sync",
    "transport_for",
]
