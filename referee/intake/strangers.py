"""A short answer to someone the referee does not know (issue 18): what this is, how to reach the GM, HELP.

Until now a mail from an unknown address got no answer at all, which leaves a player writing from a
second address, or someone asking how to join, with nothing. Now such a mail is answered, within
limits that keep the referee from being used to send mail to strangers:

- nothing to robots, bounces and lists (those never get here: :mod:`.loops`, :mod:`.bounces`), nor to
  a mail judged forged (:func:`.forgery.forged_by`: the trusted Authentication-Results when configured,
  else an envelope sender of another domain than its From): a forged sender would make us mail a stranger;
- every mail to an address that never asked passes the outbound policy (:mod:`referee.store.outbound`):
  at most ``never_asked_per_day`` in 24 hours, whatever made the referee write;
- the short note at most once a day per address (``stranger`` marks), and at most
  ``answers_per_hour`` stranger answers an hour in all;
- HELP is answered for anyone, within the usual answer limits;
- every answer leads with how to join (LIST, JOIN, OBSERVE); a mail asking to play ("I want to join", "Ich
  möchte mitspielen", "Quiero unirme"...) also shows the games LIST shows right now.

The mail is still recorded as ``ignored`` (``unknown sender ...``): nothing in it is acted on.
"""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING

from ..games import signup
from ..mailparse.senders import limit_key
from ..messages import community as community_words
from ..messages import strangers as words
from ..orders import extract, read_orders
from ..orders.community_phrases import wants_to_join
from ..orders.replies import help_text
from . import answers, forgery, limits

if TYPE_CHECKING:
    from .job import Job

#: ``OutgoingMail.kind`` of the answers to strangers
KIND_STRANGER = "stranger"
#: counter kind (``intake_marks``) and its windows
STRANGER = "stranger"
PER_ADDRESS = timedelta(days=1)
ALL = "*"


def stranger(job: Job, sender: str, problem: str | None) -> str:
    """Record a mail from an unknown sender as ignored, answering it when the limits allow."""
    reason = f"unknown sender {sender}" + (f" ({problem})" if problem else "")
    s, settings, now = job.s, job.settings, job.now
    if (by := forgery.forged_by(settings, job.mail, sender)) is not None:
        job.forged = True
        return job.ignore(reason + f"; not answered: judged forged by the envelope sender or the checks ({by})")
    help_asked = False
    if job.mail.body:
        _, result = read_orders(job.mail.body)
        help_asked = "help" in result.commands
    key = limit_key(sender)
    if not help_asked and limits.count(s, STRANGER, key, now, PER_ADDRESS) > 0:
        return job.ignore(reason + "; answered already today")
    if limits.count(s, STRANGER, ALL, now) >= settings.answers_per_hour:
        return job.ignore(reason + "; not answered: too many answers to strangers this hour")
    joining = not help_asked and wants_to_join([t for _, t in extract(job.mail.body or "").lines], job.mail.subject)
    subject = words.HELP_SUBJECT if help_asked else words.JOIN_SUBJECT if joining else words.NOTE_SUBJECT
    listing = _listing(job) if joining else None   # what LIST would answer her; HELP names no game
    text = words.note(settings.referee_address, settings.gm_address or None,
                      community_words.HELP + "\n" + help_text() if help_asked else None, listing)
    if not job.send(KIND_STRANGER, sender, subject, text):
        return job.ignore(reason + "; not answered: the outbound policy held it back")
    limits.mark(s, STRANGER, key, now, job.incoming)
    limits.mark(s, STRANGER, ALL, now, job.incoming)
    return job.ignore(reason + ("; answered with HELP" if help_asked else "; answered with a short note"))


def _listing(job: Job) -> str:
    """What LIST answers now (for someone who asked to play, or for HELP)."""
    rows = [(r.code, r.course, r.state, r.players, r.seats, r.deadline, r.masters, r.open_seats)
            for r in signup.open_games(job.s, job.settings, job.now)]
    return community_words.listing(rows, job.now)


__all__ = ["KIND_STRANGER", "answers", "stranger"]
