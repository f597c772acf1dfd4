"""From stored mail to orders and answers: the second step of the intake (``referee process``).

Mails are taken from the store (:func:`referee.store.mail.claim_incoming`), one transaction each:
what a mail leads to (orders, standing orders, its outcome, the answers in the outbox) is committed
together or not at all. A mail whose processing fails is recorded ``error`` with the reason and can
be processed again after a fix (``referee mail reprocess``): the raw mail is never lost.

For one mail (:func:`process_mail`):

1. **Robots and lists are never answered**: loops, bounces, list mail and auto-replies
   (:func:`referee.orders.loop_reason`) and mail from the referee's own address end ``ignored``. A bounce
   of the referee's own mail marks that mail failed and tells the GM (:mod:`.bounces`);
   poison (:mod:`.unreadable`) and mail with no readable sender and text end ``unreadable``; an
   answer of ours pasted back is read only above its marker (:mod:`.loops`). The sender is read by
   :mod:`.senders` (the address in angle brackets).
2. **GM commands**: a ``BEGIN GM`` block (found by :func:`referee.orders.extract.find_gm_begin`)
   from a GM address goes to the ``gm_handler`` given inside the mail's transaction, so
   the commands, their answer and the outcome are committed together (a crash: none of them, and
   the mail is processed again); with none, it is ``rejected`` ("GM commands are not available")
   and the GM is told. From anyone else it is ``ignored``. Either way the key on its BEGIN GM line is taken
   out of the stored mail and the answer (:mod:`.redact`): only a digest of a GM key is kept.
3. **Whose robot** (:mod:`.routing`): the BEGIN line (game and robot); else a reply-address token
   (:mod:`referee.games.tokens`); else the turn mail or answer it replies to (In-Reply-To /
   References); else a game code in the subject with the sender's robot in it; else the sender's
   only robot in a running game.
4. **Who may send** (:mod:`.taking`; the mail's text was read once before, :func:`referee.orders.read_reply`):
   the player's address of record *and* the player's key (on the
   BEGIN line, or the token). A key holder writing from another address is obeyed and only the address of record
   is answered (no prose of the mail quoted). A mail from the address of record without the key
   whose envelope sender is of another domain is a forgery: refused, and she is told in a few words.
   A known player without the key gets the errors (no orders are taken), and
   so does a player writing about someone else's robot (without that robot's cards or key). Mail from
   anyone else is ``ignored``: unknown senders are never answered.
5. **Orders**, one use case (:func:`referee.games.take_orders`, by the rules of :mod:`referee.orders.rules`),
   then one answer (:mod:`.replying`, in the words of :mod:`referee.messages`): read with the robot's hand,
   locked registers and options from the open turn. Orders for another turn (BEGIN line, token, or the turn
   mail replied to) are
   stale, orders that came after the deadline are late; either way nothing is taken. A good program goes in with
   :func:`referee.games.submit_program` (the last one counts; a power down and a re-entry
   facing ride on it), standing orders are merged into the player's, and the answer echoes what is
   now on file with the time left. A mail with any error changes nothing and is answered with every
   error and a template to correct. HELP, STATUS and CARDS are answered in the same mail.
6. Answers are limited (:mod:`.limits`): any kind to ``answers_per_hour`` per address and sender,
   errors to ``error_replies_per_hour`` (forgeries counted apart), with one notice to the player and
   the GM when they stop; accepted and stale-orders answers to the player's own mail always go. The
   same orders again within minutes are taken and answered once (:mod:`.loops`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import datetime

from sqlalchemy.orm import Session

from ..common.config import Settings
from ..mailparse.unreadable import why_unreadable
from ..messages import gm as to_gm
from ..orders import MailText, extract, loop_reason, read_mail, read_reply
from ..orders.extract import find_gm_begin
from ..store.db import Store
from ..store.mail import claim_incoming, set_outcome
from ..store.mail_models import IncomingMail
from ..store.types import utcnow
from ..store.within import StoreWithin
from . import answers, community, forgery, loops
from .bounces import handle_bounce
from .faults import fault_point
from .former import gone_by_address
from .job import Job, safe
from .redact import text_without_key, without_key
from .replying import unidentified
from .routing import gm_addresses, is_referee, known, replied_to, route
from .strangers import stranger
from .taking import player_mail

log = logging.getLogger("referee.intake")

NO_GM = to_gm.NO_GM


# -- GM commands ------------------------------------------------------------------------------------------
@dataclass
class GmMail:
    """What a GM command handler is given. It runs inside the mail's transaction: ``store``'s
    transactions are savepoints of it (:class:`~referee.store.within.StoreWithin`), committed with
    the mail's outcome and answer, or not at all."""

    store: Store | StoreWithin
    settings: Settings
    #: the stored mail's id
    mail_id: int
    mail: MailText
    sender: str
    now: datetime


@dataclass
class GmOutcome:
    #: ``accepted``, ``rejected`` or ``ignored``: recorded as the mail's outcome
    outcome: str
    reason: str | None = None
    #: text mailed back to the sender (None: nothing)
    reply: str | None = None


GmHandler = Callable[[GmMail], GmOutcome]


def referee_gm_handler(request: GmMail) -> GmOutcome:
    """The handler of :mod:`referee.gm` (which checks the GM's address and key itself)."""
    from ..gm import handle_gm_text

    answer = handle_gm_text(request.store, request.settings, request.mail.body, sender=request.sender,
                            now=request.now)
    return GmOutcome("accepted" if answer.accepted else "rejected", answer.reason or None, answer.reply)


# -- the pass over stored mail --------------------------------------------------------------------------
@dataclass
class ProcessReport:
    outcomes: dict[str, int] = field(default_factory=dict)
    #: store ids, in the order processed
    ids: list[int] = field(default_factory=list)

    @property
    def processed(self) -> int:
        return len(self.ids)

    def summary(self) -> str:
        counts = ", ".join(f"{n} {k}" for k, n in sorted(self.outcomes.items())) or "nothing to do"
        return f"{self.processed} mails processed: {counts}"


def process_pending(store: Store, settings: Settings, *, limit: int | None = None, now: datetime | None = None,
                    gm_handler: GmHandler | None = None) -> ProcessReport:
    """Process waiting (``new``) mails, oldest first, each in its own transaction, until none is left
    (or ``limit`` were done). Safe to run in several processes at once.

    GM command blocks go to ``gm_handler`` (none: they are refused and the GM told) in their mail's
    transaction: carried out and answered once, whenever a crash comes."""
    report = ProcessReport()
    while limit is None or report.processed < limit:
        request: GmMail | None = None
        with store.write() as s:
            claimed = claim_incoming(s, limit=1)
            if not claimed:
                break
            incoming = claimed[0]
            mail_id = incoming.id
            try:
                with s.begin_nested():
                    outcome, request = _process(s, settings, incoming, now=now, gm_handler=gm_handler, store=store)
                    if request is not None and gm_handler is not None:
                        outcome = _run_gm(s, settings, gm_handler, request)
            except Exception as exc:  # a bug or a surprise: recorded, and the mail can be processed again
                log.exception("mail %s could not be processed", mail_id)
                incoming = s.get(IncomingMail, mail_id, populate_existing=True)  # type: ignore[assignment]
                set_outcome(s, incoming, "error", safe(f"{type(exc).__name__}: {exc}")[:2000], now=now)
                outcome = "error"
        report.ids.append(mail_id)
        report.outcomes[outcome] = report.outcomes.get(outcome, 0) + 1
    return report


def _run_gm(s: Session, settings: Settings, handler: GmHandler, request: GmMail) -> str:
    """Run the GM handler in the mail's transaction ``s`` and record what came of it with its answer.
    A handler that raises rolls back whatever it did (the caller records the mail ``error``)."""
    result = handler(replace(request, store=StoreWithin(request.store, s)))
    fault_point("gm-carried-out")
    incoming = s.get(IncomingMail, request.mail_id)
    assert incoming is not None
    job = Job(s, settings, incoming, request.mail, request.now)
    if result.reply:   # the answer to a GM block with the right key always goes, as accepted orders do
        subject = to_gm.commands_subject(result.outcome, result.reason)
        begin = find_gm_begin(request.mail.body or "")
        job.send(answers.KIND_GM, request.sender, subject, text_without_key(result.reply, begin.key if begin else None),
                 exempt=result.outcome == "accepted")
    return job.finish(result.outcome, result.reason)


# -- one mail -------------------------------------------------------------------------------------------
def process_mail(s: Session, settings: Settings, incoming: IncomingMail, *, now: datetime | None = None) -> str:
    """Decide what ``incoming`` is, act on it and record its outcome (see the module docstring), in the
    caller's write transaction. Returns the outcome. GM command blocks are only recorded here (as
    rejected: no handler); :func:`process_pending` hands them to the GM handler."""
    return _process(s, settings, incoming, now=now, gm_handler=None, store=None)[0]


def _process(s: Session, settings: Settings, incoming: IncomingMail, *, now: datetime | None,
             gm_handler: GmHandler | None, store: Store | None) -> tuple[str, GmMail | None]:
    poison = why_unreadable(incoming.raw)
    mail = MailText(rejected=poison) if poison else read_mail(incoming.raw, max_bytes=settings.max_mail_bytes)
    job = Job(s, settings, incoming, mail, now or utcnow())
    if mail.sender is None and mail.rejected:   # no parser could read it: kept raw, never answered
        return job.finish("unreadable", mail.rejected), None
    bounced = handle_bounce(s, settings, incoming.raw, job.now)  # a report on our own mail: the GM is told
    if bounced:
        return job.ignore(bounced), None
    why = loop_reason(mail, settings.referee_address)
    if why:
        return job.ignore(community.unsubscribed(job) or why), None   # an automatic unsubscribe still counts
    sender = (mail.sender or "").strip().lower()
    if "@" not in sender or not sender.isprintable() or sender != safe(sender):
        return job.ignore("no usable sender address" + (f" ({safe(sender)[:80]!r})" if sender else "")), None
    if is_referee(sender, settings):
        return job.ignore("sent from the referee's own address"), None
    if loops.our_own(s, mail.message_id):
        return job.ignore("a mail of the referee came back (its own Message-ID)"), None
    pasted = False
    if mail.body and (above := loops.before_marker(mail.body)) is not None:   # an answer of ours came back
        if not any(line.strip() for _, line in extract(above).lines):
            return job.ignore("an answer of the referee came back (its marker line), with nothing of the "
                              "sender's own above it"), None
        mail.body, pasted = above, True   # a reply written above our answer pasted back (Outlook): read, answered
    if (ours := loops.answers_ours(s, mail)) is not None or pasted:   # a reply to our answer: loops end (issue 41)
        own = mail.body if pasted else "\n".join(t for _, t in read_reply(mail.body, replied_to(s, mail)).own.lines)
        if loops.content_free(own) and \
                not loops.answer_once(s, loops.thread_of(s, sender, ours, mail.subject), job.now, incoming):
            return job.ignore("a reply with no order, command or question that quotes our answer: not answered "
                              "(one answer per thread a day; an autoresponder?)"), None
    if mail.body and (gm_begin := find_gm_begin(mail.body)) is not None:
        incoming.raw = without_key(incoming.raw, gm_begin.key)   # only a digest of a GM key is kept (docs/gm.md)
        return _gm(job, sender, gm_handler, store)
    read = read_reply(mail.body, replied_to(s, mail))   # the mail's text read once: the reply model
    found, who = route(s, settings, mail, read, sender)
    if (handled := community.commands(job, sender, found, who)) is not None:   # LIST, JOIN, PRESS... (issue 31)
        return handled, None
    if who.player is None:
        if (gone := gone_by_address(job, sender)) is not None:   # she left her seat: words of their own
            return gone, None
        if not known(s, settings, sender):
            return stranger(job, sender, who.problem), None
        job.forged = forgery.forged_by(settings, mail, sender) is not None   # then nothing goes to that address
        return unidentified(job, sender, who, read), None
    return player_mail(job, sender, who, found.header, read, quoted_form=found.from_quote), None


def _gm(job: Job, sender: str, handler: GmHandler | None, store: Store | None) -> tuple[str, GmMail | None]:
    if sender not in gm_addresses(job.s, job.settings):
        return job.ignore(f"a GM command block from {sender}, who is not a game master"), None
    if handler is None or store is None:
        job.send(answers.KIND_GM, sender, to_gm.NOT_AVAILABLE_SUBJECT, to_gm.not_available())
        return job.finish("rejected", NO_GM), None
    outcome = job.finish("accepted", "GM commands handed to the GM handler")
    return outcome, GmMail(store, job.settings, job.incoming.id, job.mail, sender, job.now)
