"""What is new since a player's last mail, told in one short block of their turn mail: the announcements the
GM's changes (a deadline moved or extended, a player replaced or gone, the game paused or resumed, a turn
corrected) and the referee's own (deadlines moved after an outage) put in the outbox for them while the turn
was open. They still go out as notices at once; the block is the recap beside the turn they belong to.

Read from the outbox (``kind = 'announcement'``, queued after the turn opened): what is not announced to the
players (a GM's ``SET`` of a robot, a house rule; see the audit log) is not recorded anywhere a player's mail
may quote, so it is not in the block.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from email import message_from_bytes, policy

from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session

from ..store.models import Game, OutgoingMail, Player, Turn

#: the outbox kind of a notice to every player of a game (:func:`referee.notices.announce`)
KIND_ANNOUNCEMENT = "announcement"

_SINCE = (select(OutgoingMail.player_id, OutgoingMail.raw)
          .where(OutgoingMail.game_id == bindparam("game"), OutgoingMail.kind == KIND_ANNOUNCEMENT,
                 OutgoingMail.created_at > bindparam("since"))
          .order_by(OutgoingMail.id))


_TIME_LEFT = re.compile(r" \(in [^()]*\)")


def _first_paragraph(raw: bytes) -> str:
    """The announcement's words, its first paragraph on one line (a joined notice: each one's)."""
    body = message_from_bytes(raw, policy=policy.default).get_body(("plain",))
    text = body.get_content() if body is not None else ""  # type: ignore[attr-defined]
    first = text.replace("\r\n", "\n").strip().split("\n\n")[0]
    # "(in 3 days)" was true when the notice went; the turn mail comes later
    return _TIME_LEFT.sub("", re.sub(r"\s+", " ", first)).strip()


def news_since(s: Session, game: Game, turn: Turn, players: Sequence[Player]) -> dict[int, list[str]]:
    """player id -> the announcements queued for them while ``turn`` was open, oldest first, in one query."""
    wanted = {p.id for p in players}
    out: dict[int, list[str]] = {}
    for player_id, raw in s.execute(_SINCE, {"game": game.id, "since": turn.opened_at}):
        if player_id in wanted:
            line = _first_paragraph(raw)
            if line and line not in out.setdefault(player_id, []):
                out[player_id].append(line)
    return out
