"""What is new since a player's last mail, told in one short block of their turn mail: the announcements the
GM's changes (a deadline moved or extended, a player replaced or gone, the game paused or resumed, a turn
corrected) and the referee's own (deadlines moved after an outage) put in the outbox for them while the turn
was open. They go out as notices at once, and the block is the recap beside the turn they belong to; but the
announcements queued in the same moment as the turn mail (one GM mail with ``SET`` ... ``PROCESS``, one tick)
and not sent yet are told only in the block: their own mails are cancelled in the same transaction, so the
player gets one mail. A notice whose turn is not resolved with it still goes out alone. Each line is told
in one turn mail of a seat only: a turn rolled back or re-run is reported again without the news its first
report told. A GM mail's notice (:mod:`referee.gm.bulletin`) gives its lines, one per change; what it asked
the player to do while the turn was open is not repeated.

Read from the outbox (``kind = 'announcement'``, queued after the turn opened): what is not announced to the
players (a GM's ``SET`` of a robot, a house rule; see the audit log) is not recorded anywhere a player's mail
may quote, so it is not in the block.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime
from email import message_from_bytes, policy

from sqlalchemy import bindparam, func, select, update
from sqlalchemy.orm import Session

from ..messages.bulletin import bullets
from ..store.mail_models import OutgoingMail
from ..store.models import Game, Player, Turn

#: the outbox kind of a notice to every player of a game (:func:`referee.mailer.notices.announce`)
KIND_ANNOUNCEMENT = "announcement"

_SINCE = (select(OutgoingMail.id, OutgoingMail.player_id, OutgoingMail.raw, OutgoingMail.created_at)
          .where(OutgoingMail.game_id == bindparam("game"), OutgoingMail.kind == KIND_ANNOUNCEMENT,
                 OutgoingMail.created_at > bindparam("since"))
          .order_by(OutgoingMail.id))


#: each player's last turn mail (the start mail, a turn's results): what came before it was told there
_LAST_TOLD = (select(OutgoingMail.player_id, func.max(OutgoingMail.created_at))
              .where(OutgoingMail.game_id == bindparam("game"),
                     OutgoingMail.kind.in_(("turn_start", "turn_report")), OutgoingMail.status != "cancelled")
              .group_by(OutgoingMail.player_id))


_TIME_LEFT = re.compile(r" \(in [^()]*\)")
#: the line between the notices joined in one mail (:func:`referee.mailer.notices.notice`)
_JOINED = re.compile(r"\n-{60}\n")


def _first_paragraphs(raw: bytes) -> list[str]:
    """The announcement's words, its first paragraph on one line (a joined notice: each one's)."""
    body = message_from_bytes(raw, policy=policy.default).get_body(("plain",))
    text = body.get_content() if body is not None else ""  # type: ignore[attr-defined]
    out = []
    for part in _JOINED.split(text.replace("\r\n", "\n")):
        first = part.strip().split("\n\n")[0]
        # a GM mail's notice: its lines, one per change (what to do about them was for the open turn)
        for line in bullets(first) or [first]:
            # "(in 3 days)" was true when the notice went; the turn mail comes later
            line = _TIME_LEFT.sub("", re.sub(r"\s+", " ", line)).strip()
            if line:
                out.append(line)
    return out


def _naive(when: datetime) -> datetime:
    """A stored time compared alike whether the database kept its zone (PostgreSQL) or not (SQLite)."""
    return when.replace(tzinfo=None) if when.tzinfo is not None else when


def news_since(s: Session, game: Game, turn: Turn, players: Sequence[Player], *,
               fold_at: datetime | None = None) -> dict[int, list[str]]:
    """player id -> the announcements queued for them while ``turn`` was open, oldest first, in one query.

    ``fold_at``: the moment the turn mail is queued (not held). The announcements told here that were queued
    at that same moment and not yet sent are cancelled: the turn mail is their only mail."""
    wanted = {p.id for p in players}
    # per seat: news already told in a turn mail (a turn rolled back or re-run is reported again) is not repeated
    last = {player_id: when for player_id, when in s.execute(_LAST_TOLD, {"game": game.id})}
    out: dict[int, list[str]] = {}
    told: list[int] = []
    for mail_id, player_id, raw, created in s.execute(_SINCE, {"game": game.id, "since": turn.opened_at}):
        if player_id in wanted and (last.get(player_id) is None or _naive(created) > _naive(last[player_id])):
            lines = _first_paragraphs(raw)
            if lines:
                told.append(mail_id)
            for line in lines:
                if line not in out.setdefault(player_id, []):
                    out[player_id].append(line)
    if fold_at is not None and told:
        s.execute(update(OutgoingMail)
                  .where(OutgoingMail.id.in_(told), OutgoingMail.created_at == fold_at,
                         OutgoingMail.status == "pending", OutgoingMail.attempts == 0)
                  .values(status="cancelled", last_error="told in the turn mail's news block instead")
                  .execution_options(synchronize_session="fetch"))
    return out
