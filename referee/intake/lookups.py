"""The intake's own questions to the store, named by what they ask.

The store's query functions (:mod:`referee.store.queries`, :mod:`referee.store.mail`) answer most of
what the intake needs; the few they do not are here, so that the intake's flow holds no ORM query of
its own. (At the merge of issue 20 these may move under the store's queries.)
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..store.community_models import GameMaster
from ..store.mail_models import OutgoingMail
from ..store.models import Game, Player
from ..store.queries import players_at

__all__ = ["players_at"]  # the store's one query of who plays at an address, as the intake names it


def game_master_addresses(s: Session) -> set[str]:
    """The GM addresses games were created with, and the GMs the operator added (lower case)."""
    added = set(s.scalars(select(GameMaster.address).where(GameMaster.active.is_(True))))
    return added | {a.lower() for a in s.scalars(select(Game.gm_address).where(Game.gm_address.is_not(None))) if a}


def sent_to_players(s: Session, message_ids: Sequence[str]) -> dict[str, OutgoingMail]:
    """Our outgoing mails to a player among ``message_ids``, by Message-ID (what a reply may answer)."""
    rows = s.scalars(select(OutgoingMail).where(OutgoingMail.message_id.in_(list(message_ids)),
                                                OutgoingMail.player_id.is_not(None)))
    return {m.message_id: m for m in rows}


def player_by_id(s: Session, player_id: int) -> Player | None:
    return s.get(Player, player_id)


def sent_mail(s: Session, message_ids: Sequence[str]) -> OutgoingMail | None:
    """The first of our outgoing mails among ``message_ids`` (what a delivery report is about)."""
    return s.scalars(select(OutgoingMail).where(OutgoingMail.message_id.in_(list(message_ids)))).first()
