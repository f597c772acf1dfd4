"""Press (issue 31): a short message from one player to all the others, or to one robot, relayed by the
referee. The sender's address is never shown: by the game's ``press`` setting (GM ``PRESS OFF | GREY |
WHITE``) press is refused, sent anonymously (grey), or signed with the sender's robot name (white). Every
message is kept (:class:`~referee.store.models.PressMessage`) for the GM, and for the archive once the game
is over when the game says so (``PRESS ARCHIVE ON``)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.orm import Session

from ..store.community_models import PressMessage
from ..store.mail_models import IncomingMail
from ..store.models import Game, Player
from .signup import settings_view
from .states import GAME, SEAT, may, seat_state


class PressRefused(Exception):
    """Press that cannot go (off in the game, no such robot...)."""


@dataclass(frozen=True)
class Relayed:
    game: Game
    #: ``grey`` or ``white``
    mode: str
    #: the robot name shown as the sender (white), or None (grey)
    signed_by: str | None
    to_all: bool
    recipients: tuple[Player, ...]
    message: str


def send_press(s: Session, sender: Player, to: str | None, message: str, *, now: datetime,
               incoming: IncomingMail | None = None) -> Relayed:
    """Record press from ``sender`` to robot ``to`` (None: every other player) and say whom it goes to."""
    game = sender.game
    mode = settings_view(s, game).press
    if mode == "off":
        raise PressRefused(f"the game master has turned press off in {game.code}")
    if not may(GAME, game.status, "press"):
        raise PressRefused(f"{game.code} is over")
    if not may(SEAT, seat_state(s, sender, now=now), "press"):   # resigned, replaced, ejected: the seat machine
        raise PressRefused(f"you no longer play in {game.code}")
    others = [p for p in game.players if p.id != sender.id and may(SEAT, seat_state(s, p, now=now), "mail")]
    if to is not None:
        found = [p for p in others if p.robot_key == to.casefold()]
        if not found:
            names = ", ".join(p.robot for p in others) or "none"
            raise PressRefused(f"{game.code} has no other robot named {to} (robots: {names})")
        others = found
    if not others:
        raise PressRefused(f"nobody else plays in {game.code}")
    s.add(PressMessage(game_id=game.id, sender_id=sender.id, to_id=others[0].id if to is not None else None,
                       mode=mode, turn_number=game.turn_number or None, text=message, at=now,
                       incoming_mail_id=incoming.id if incoming else None))
    s.flush()
    return Relayed(game, mode, sender.robot if mode == "white" else None, to is None, tuple(others), message)
