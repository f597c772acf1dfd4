"""One mail being processed: its session, what it said, and the two things every step does with it:
record its outcome (:meth:`Job.finish`) and queue an answer as the outbound policy decides (:meth:`Job.send`,
:mod:`referee.store.outbound`)."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from sqlalchemy.orm import Session

from ..common.config import Settings
from ..games.tokens import reply_address
from ..messages import gm as to_gm
from ..messages import players
from ..orders import MailText
from ..store import outbound
from ..store.mail import set_outcome
from ..store.mail_models import IncomingMail
from ..store.models import Game, Player, Turn
from ..store.outbox import enqueue_mail
from . import answers, digest, limits

if TYPE_CHECKING:
    from ..render.mail import Picture

log = logging.getLogger("referee.intake")


def safe(text: str) -> str:
    """Text from a mail made fit for any database column: no NULs (PostgreSQL refuses them), valid UTF-8."""
    return text.replace("\x00", "").encode("utf-8", "replace").decode("utf-8")


@dataclass
class Job:
    s: Session
    settings: Settings
    incoming: IncomingMail
    mail: MailText
    now: datetime
    #: the mail is a genuine player's (her address of record, not forged): answers over the limits go to
    #: her hour's digest (:mod:`.digest`) instead of being dropped
    genuine: bool = False
    #: the next answer goes to the digest (an error answer over ``error_replies_per_hour``)
    to_digest: bool = False
    #: an answer went to the digest (the outcome's reason says so)
    digested: bool = False
    #: the mail is judged forged (:func:`referee.intake.forgery.forged_by`) and carries no key: nothing is
    #: answered to the address it names
    forged: bool = False
    #: answers the outbound policy refused (logged and counted: :data:`referee.store.outbound.WITHHELD`)
    withheld: int = 0

    def __post_init__(self) -> None:
        outbound.use(self.s, self.settings)   # every mail queued in this session is decided with these budgets

    def finish(self, outcome: str, reason: str | None, *, game: Game | None = None, player: Player | None = None,
               turn: int | None = None) -> str:
        if self.digested:
            reason = f"{reason or outcome} (answered in the hour's digest)"
        if self.withheld:
            reason = f"{reason or outcome} ({self.withheld} mail(s) held back by the outbound policy)"
        set_outcome(self.s, self.incoming, outcome, safe(reason)[:2000] if reason else None, game=game,
                    player=player, turn_number=turn, now=self.now)
        return outcome

    def ignore(self, reason: str) -> str:
        return self.finish("ignored", reason)

    def send(self, kind: str, to: str, subject: str, body: str, *, game: Game | None = None,
             player: Player | None = None, turn: Turn | None = None, exempt: bool = False,
             pictures: Sequence[Picture] = ()) -> bool:
        """Queue an answer as the outbound policy decides (:func:`referee.store.outbound.decide`; ``exempt``:
        an accepted or stale orders answer to the player's own keyed mail, a GM's keyed commands; ``pictures``
        go with it). Returns whether it was queued (to a genuine player over the budgets: in her digest)."""
        hers = self.genuine and not self.forged and to == self.mail.sender
        if self.to_digest and hers:
            action = outbound.HOLD
        else:
            decision = outbound.decide(self.s, outbound.Request(
                kind, to, asked_by=self.mail.sender, forged=self.forged, exempt=exempt,
                gm_address=self.settings.gm_address), self.now, self.incoming)
            action = decision.action
        if action == outbound.HOLD and hers:
            self.to_digest, self.digested = False, True
            digest.add(self, to, subject, body, game=game, player=player, turn=turn)
            log.info("answer limit: the %s answer to %s for mail %s goes in the digest", kind, to, self.incoming.id)
            return True
        if action != outbound.SEND:
            self.withheld += 1
            log.info("outbound policy: no %s answer to %s for mail %s", kind, to, self.incoming.id)
            return False
        reply = reply_address(self.settings, game, player, turn.number if turn else None) \
            if game is not None and player is not None else None
        try:
            msg = answers.answer_mail(self.settings, self.incoming, self.mail, kind=kind, to=to, subject=subject,
                                      body=body, now=self.now, game=game, reply_to=reply,
                                      pictures=pictures)
        except (ValueError, TypeError, IndexError) as exc:  # an address no answer can be written to
            log.warning("no answer to %r for mail %s: %s", to, self.incoming.id, exc)
            return False
        enqueue_mail(self.s, msg, kind=kind, recipients=[to], sender=self.settings.referee_address, game=game,
                     player=player, turn_number=turn.number if turn else None, in_reply_to=self.incoming,
                     now=self.now, decided=True)
        return True

    def may_answer_error(self, sender: str, *, game: Game | None = None, forged: bool = False) -> bool:
        """Whether an error answer may go to ``sender`` (``error_replies_per_hour``; forgeries counted
        apart). The first one held back in an hour is replaced by a notice to the sender and the GM."""
        if limits.may_answer_error(self.s, self.settings, sender, self.now, forged=forged):
            return True
        merged = self.genuine and not forged and sender == self.mail.sender
        if limits.first_held_back(self.s, sender, self.now):
            limit = self.settings.error_replies_per_hour
            if not merged:   # the digest tells a genuine player herself
                self.send(answers.KIND_REJECTION, sender,
                          players.subject_for(game, None, None, players.ANSWERS_PAUSED),
                          players.answers_paused(limit, forged), exempt=True)
            gm = (game.gm_address if game is not None else None) or self.settings.gm_address
            if gm:
                self.send(answers.KIND_GM, gm, to_gm.answers_paused_subject(safe(sender)[:200]),
                          to_gm.answers_paused(safe(sender)[:200], limit, players.paused_what(forged)), exempt=True)
        if merged:
            self.to_digest = True   # written all the same, and merged into the hour's digest
            return True
        return False

    def held_back(self, reason: str, sender: str, *, game: Game | None = None, player: Player | None = None,
                  turn: int | None = None) -> str:
        """Record a mail rejected whose error answer was held back by the limits."""
        return self.finish("rejected", f"{reason} (not answered: too many error answers to {sender} this hour)",
                           game=game, player=player, turn=turn)
