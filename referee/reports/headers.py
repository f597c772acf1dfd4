"""Who the referee's mails come from and the headers every mail of a game carries (the turn mails, the game-over
mail)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from email.utils import format_datetime, formataddr

from ..common.config import Settings
from ..orders.mailtext import outgoing_headers
from ..store.models import Game


@dataclass(frozen=True, slots=True)
class Sender:
    """Who the referee's mails come from, and the domain of their Message-IDs."""

    address: str
    name: str
    domain: str

    @classmethod
    def from_settings(cls, settings: Settings) -> Sender:
        return cls(settings.referee_address, settings.referee_name, settings.domain)

    @property
    def header(self) -> str:
        return formataddr((self.name, self.address)) if self.name else self.address


def gm_address(settings: Settings, game: Game) -> str | None:
    """Where the game's GM gets mail: the game's own GM, else the configured one, else nobody."""
    return game.gm_address or settings.gm_address or None


def mail_headers(settings: Settings, game: Game, now: datetime, reply_to: str | None = None) -> dict[str, str]:
    """Date, loop protection (an automatic mail of our own) and the game header."""
    headers = {"Date": format_datetime(now)}
    headers.update(outgoing_headers(settings.referee_address, game=game.code, reply=False))
    if reply_to:
        headers["Reply-To"] = reply_to
    return headers
