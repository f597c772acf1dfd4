"""Mail in a player's name that is not hers, and keys being guessed.

- A mail with her address in From, without her key, is judged by :func:`verdict` (the one judgement every
  path of the intake asks): with ``trusted_authserv_id`` set, the receiving server's own findings decide
  first (:mod:`referee.mailparse.authresults`): DKIM, SPF or DMARC passing for her domain make the mail hers
  whatever its envelope (a forwarder's SRS address), and their failing makes it forged whatever its
  envelope; else an envelope sender (Return-Path) of another organization makes it forged. A forged mail is
  refused, and she is told in a few words ("a mail in your name from <envelope sender> was refused"), with
  nothing of it quoted; these notices are counted apart from the answers to her own mistakes.
- Every wrong key for a robot is counted; after :data:`WRONG_KEYS_TOLD` within
  :data:`WRONG_KEY_WINDOW`, the GM is told (once per robot in that window).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Literal, Protocol

from sqlalchemy.orm import Session

from ..common.config import Settings
from ..mailparse.authresults import domain_of, same_organization, sender_verdict
from ..messages import gm as to_gm
from ..messages import players
from ..orders import MailText
from ..store.mail_models import IncomingMail
from ..store.models import Game, Player, Turn
from . import answers, limits

#: after this many wrong keys for one robot within WRONG_KEY_WINDOW, the GM is told
WRONG_KEYS_TOLD = 5
WRONG_KEY_WINDOW = timedelta(days=1)


class Job(Protocol):
    """What the intake hands over for one mail (:class:`referee.intake.job.Job`)."""

    s: Session
    settings: Settings
    incoming: IncomingMail
    now: datetime

    def finish(self, outcome: str, reason: str | None, *, game: Game | None = None, player: Player | None = None,
               turn: int | None = None) -> str: ...

    def send(self, kind: str, to: str, subject: str, body: str, *, game: Game | None = None,
             player: Player | None = None, turn: Turn | None = None, exempt: bool = False) -> bool: ...

    def may_answer_error(self, sender: str, *, game: Game | None = None, forged: bool = False) -> bool: ...


#: what the refusal names when the envelope sender is of her domain but the server's checks failed
FAILED_CHECKS = "a server that failed the DKIM, SPF and DMARC checks of your domain"


@dataclass(frozen=True)
class Verdict:
    """Whether a mail is from the address in its From: ``forged``, ``genuine`` or ``unknown``; ``by`` names
    who really sent a forged one (the envelope sender, or :data:`FAILED_CHECKS`)."""

    kind: Literal["forged", "genuine", "unknown"]
    by: str | None = None

    @property
    def forged(self) -> bool:
        return self.kind == "forged"


def verdict(settings: Settings, mail: MailText, sender: str) -> Verdict:
    """The one judgement of whether ``sender`` (the mail's From) sent ``mail``, for every path of the intake.

    With ``trusted_authserv_id`` set, the receiving server's findings decide (:func:`sender_verdict`, read by
    the RFC 8601 grammar with alignment by the Public Suffix List): a pass is ``genuine`` whatever the
    envelope (a forwarder's SRS address), a failure ``forged``. Without them, an envelope sender
    (Return-Path) of another organization than the From's is ``forged``; anything else is ``unknown``."""
    headers = mail.loop_headers
    trusted = sender_verdict(headers.get("authentication-results", ()),
                             headers.get("arc-authentication-results", ()),
                             settings.trusted_authserv_id, sender, trust_arc=settings.trust_arc_results)
    if trusted == "pass":
        return Verdict("genuine")
    envelope = limits.envelope_sender(headers.get("return-path", ()))
    if envelope is not None and same_organization(domain_of(envelope), domain_of(sender)):
        envelope = None
    if trusted == "fail":
        return Verdict("forged", envelope or FAILED_CHECKS)
    return Verdict("forged", envelope) if envelope is not None else Verdict("unknown")


def forged_by(settings: Settings, mail: MailText, sender: str) -> str | None:
    """Who really sent a mail :func:`verdict` judges forged (its ``by``); None when it is not judged forged."""
    judged = verdict(settings, mail, sender)
    return judged.by if judged.forged else None


def _safe(text: str) -> str:
    return text.replace("\x00", "").encode("utf-8", "replace").decode("utf-8")[:200]


def refuse(job: Job, sender: str, envelope: str, player: Player, game: Game) -> str:
    """A mail in a player's name (her address in From) sent from elsewhere (the envelope sender's domain
    is not hers), without the key: refused, and she is told so in a few words, counted apart from her
    own mistakes. Nothing of the mail is quoted."""
    reason = f"a mail in the name of {sender} from {envelope}, without the key of {player.robot}: looks forged"
    if not job.may_answer_error(sender, game=game, forged=True):
        return job.finish("rejected", f"{reason} (not answered: too many this hour)", game=game, player=player)
    job.send(answers.KIND_REJECTION, sender, players.subject_for(game, player, None, players.FORGED),
             players.forged(_safe(envelope), player.robot, game.code), game=game)
    return job.finish("rejected", reason, game=game, player=player)


def wrong_key(job: Job, sender: str, player: Player, game: Game) -> None:
    """Count a wrong key for this robot; the GM hears of it (once a day per robot) after a few."""
    key = str(player.id)
    limits.mark(job.s, limits.WRONG_KEY, key, job.now, job.incoming)
    wrong = limits.count(job.s, limits.WRONG_KEY, key, job.now, WRONG_KEY_WINDOW)
    gm = game.gm_address or job.settings.gm_address
    if wrong < WRONG_KEYS_TOLD or not gm:
        return
    if limits.count(job.s, limits.NOTICE, f"key:{key}", job.now, WRONG_KEY_WINDOW):
        return
    limits.mark(job.s, limits.NOTICE, f"key:{key}", job.now, job.incoming)
    job.send(answers.KIND_GM, gm, to_gm.wrong_keys_subject(game.code, player.robot),
             to_gm.wrong_keys(wrong, player.robot, game.code, _safe(sender), player.email), exempt=True)
