"""The hour's digest: answers over the limits, merged into one mail instead of dropped.

A genuine player's mail (from her address of record, not forged) is always answered. When the answer
limits (:mod:`.limits`) stop an answer to her, it is added to her pending digest: one mail a window
(:data:`referee.intake.limits.WINDOW`) that collects every such answer in order and leaves when the
window is over. A flood of her own mails thus costs one mail an hour, and none goes unanswered.
"""

from __future__ import annotations

from datetime import datetime
from email import policy
from email.parser import BytesParser
from typing import Protocol

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..common.config import Settings
from ..messages import players as words
from ..orders import MailText
from ..store.mail_models import IncomingMail, OutgoingMail
from ..store.models import Game, Player, Turn
from ..store.outbox import enqueue_mail
from ..store.wire import wire_bytes
from . import answers, limits


class Job(Protocol):
    """What the digest needs of the mail being answered (:class:`referee.intake.job.Job`)."""

    @property
    def s(self) -> Session: ...
    @property
    def settings(self) -> Settings: ...
    @property
    def incoming(self) -> IncomingMail: ...
    @property
    def mail(self) -> MailText: ...
    @property
    def now(self) -> datetime: ...

KIND_DIGEST = "digest"
#: answers written out in one digest; after these, the digest only counts the mails (a flood stays cheap)
MAX_SECTIONS = 30
_MORE = "\n(and "


def pending(job: Job, to: str) -> OutgoingMail | None:
    """The digest for ``to`` still waiting to go, if any."""
    rows = job.s.scalars(select(OutgoingMail).where(OutgoingMail.kind == KIND_DIGEST,
                                                    OutgoingMail.status == "pending",
                                                    OutgoingMail.next_attempt_at > job.now))
    return next((r for r in rows if [a.lower() for a in r.recipients] == [to.lower()]), None)


def add(job: Job, to: str, subject: str, body: str, *, game: Game | None = None, player: Player | None = None,
        turn: Turn | None = None) -> None:
    """Add one answer (its subject and text) to ``to``'s digest, starting one when none is pending."""
    section = words.digest_section(subject, body, " ".join(job.mail.subject.split()))
    row = pending(job, to)
    if row is None:
        msg = answers.answer_mail(job.settings, job.incoming, job.mail, kind=KIND_DIGEST, to=to,
                                  subject=words.subject_for(game, player, None, words.DIGEST),
                                  body=words.digest_head(job.settings.answers_per_hour) + section, now=job.now,
                                  game=game)
        row = enqueue_mail(job.s, msg, kind=KIND_DIGEST, recipients=[to], sender=job.settings.referee_address,
                           game=game, player=player, turn_number=turn.number if turn else None,
                           in_reply_to=job.incoming, now=job.now, decided=True)   # the policy held it here
        row.next_attempt_at = job.now + limits.WINDOW
        return
    msg = BytesParser(policy=policy.default).parsebytes(row.raw)
    text = msg.get_body(("plain",))
    assert text is not None
    content = text.get_content().rstrip("\n")
    sections = content.count(words.DIGEST_SECTION_START)
    if sections < MAX_SECTIONS:
        content += "\n" + section
    else:
        head, _, tail = content.partition(_MORE)
        more = int(tail.split(" ", 1)[0]) + 1 if tail[:1].isdigit() else 1
        content = head + _MORE + words.digest_more(more)
    text.set_content(content + "\n")
    row.raw = wire_bytes(msg)
    job.s.flush()
