"""Reading mail without losing any, and turning it into orders and answers (issue 4).

Two steps, so that a bug in reading orders never costs a mail:

1. **Take in**: :func:`referee.intake.imap.poll` (an IMAP mailbox), :func:`referee.intake.maildir.poll_maildir`
   (a Maildir, the embedded default) and :func:`referee.intake.maildir.ingest_bytes` (one mail from an
   MTA on standard input) store each raw mail once (:func:`referee.store.mail.record_incoming`) and
   commit before they take it off the server. Commands: ``referee poll``, ``referee ingest``.
2. **Process**: :func:`referee.intake.process.process_pending` reads stored mails, works out whose
   robot they are about and whether the sender may give its orders, takes the orders and queues
   the answers, all in one transaction per mail. Command: ``referee process``; ``referee mail
   reprocess`` puts mails back for another go after a fix.

Turn mails set a Reply-To made by :func:`referee.games.tokens.reply_address` so that a plain reply
carries the player's key. :mod:`referee.intake.faults` is the crash tests' switch.

Wiring the mail in (one of):

- IMAP (``transport = "imap"``): cron runs ``referee tick`` (or ``referee poll --process``); mail is
  moved to ``imap_processed`` once stored, or flagged seen when that is empty. In flag mode, a person
  reading the mailbox with a mail client marks mail seen before the referee takes it: give the referee
  a mailbox of its own.
- Maildir (``transport = "maildir"``, the default): the MTA delivers into ``maildir_in``.
- A pipe: procmail ``:0 w`` / ``| referee --config /etc/referee.toml ingest``, or a Postfix ``pipe``
  transport (``flags=Rq user=referee argv=/usr/bin/referee ingest``). Exit status 75 makes the MTA
  keep the mail and try again later (database down or busy); the mail is never bounced. Pair it with
  ``transport = "smtp"``: mail goes out over SMTP and there is no inbox, so ``referee poll`` and the
  tick's fetch do nothing (:class:`PipedIn`). A pipe also works beside ``imap`` or ``maildir``, whose
  inbox is then still read.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module
from typing import Any

_LAZY = {
    "poll": "imap", "poll_async": "imap", "PollReport": "imap", "IntakeError": "imap",
    "poll_maildir": "maildir", "ingest_bytes": "maildir",
    "process_pending": "process", "process_mail": "process",
    "GmMail": "process", "GmOutcome": "process", "ProcessReport": "process",
    "reply_address": "tokens", "reply_to": "tokens", "read_token": "tokens",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f".{module}", __name__), name)


@dataclass(frozen=True)
class PipedIn:
    """The pass of ``transport = "smtp"``: no inbox to read, the MTA hands each mail to ``referee ingest``."""

    stored: int = 0

    def summary(self) -> str:
        return ('transport "smtp": no inbox to poll, 0 stored; mail comes in through `referee ingest` '
                "(piped in by the mail server)")


def poll_configured(settings: Any, store: Any, **kwargs: Any) -> Any:
    """One pass over the configured transport's inbox (``imap`` or ``maildir``; nothing for ``smtp``).

    An unknown transport is a :class:`~referee.common.config.ConfigError` naming the valid ones."""
    transport = settings.mail_transport
    if transport == "imap":
        from .imap import poll

        return poll(settings, store, **kwargs)
    if transport == "maildir":
        from .maildir import poll_maildir

        return poll_maildir(settings, store, **kwargs)
    return PipedIn()


def fetch(settings: Any, store: Any, *, now: Any = None) -> int:
    """For ``referee tick``: one pass over the inbox; how many new mails were stored."""
    return int(poll_configured(settings, store, now=now).stored)


def process_stored(settings: Any, store: Any, *, now: Any = None) -> int:
    """For ``referee tick``: process every waiting mail, GM commands going to :mod:`referee.gm`; how many
    mails were processed."""
    from .process import process_pending, referee_gm_handler

    return process_pending(store, settings, now=now, gm_handler=referee_gm_handler).processed


__all__ = sorted([*_LAZY, "PipedIn", "fetch", "poll_configured", "process_stored"])
