"""Observers (issue 31): anyone may follow a game's public turn results by mail (no hands, no keys, no
order forms). ``OBSERVE RR-7`` only sends a confirmation mail to the address that asked; the results
follow once it is answered (:func:`referee.games.own.confirm`). Every observer mail carries an
unsubscribe address with a signed token (``List-Unsubscribe``, RFC 2369/8058): a mail to it, or
``UNOBSERVE RR-7`` from the address, ends the subscription."""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..common.config import Settings
from ..store.errors import GameStateError, NotFound
from ..store.models import Confirmation, Game, Observer
from ..store.queries import get_game
from . import signed
from .states import OBSERVER, observer_state, step

#: how long a confirmation mail (to observe a game, to take a new address) can be answered
CONFIRM_WITHIN = timedelta(days=7)
#: the letter of unsubscribe tokens (:mod:`.signed`)
UNSUBSCRIBE = "o"


def _game(s: Session, code: str) -> Game:
    try:
        game = get_game(s, code)
    except NotFound:
        raise NotFound(f"there is no game {code} (LIST shows the games)") from None
    if game.status == "finished":
        raise GameStateError(f"{game.code} is over")
    return game


def observer_of(s: Session, game: Game, address: str) -> Observer | None:
    return s.scalars(select(Observer).where(Observer.game_id == game.id, Observer.address == address.lower())).first()


def ask_observe(s: Session, code: str, address: str, *, now: datetime) -> Confirmation:
    """``address`` asks to observe game ``code``: a confirmation, to be mailed to ``address``."""
    game = _game(s, code)
    step(OBSERVER, observer_state(s, game, address, now=now), "observe", game.code)   # the observer machine
    row = Confirmation(kind="observe", address=address.lower(), game_id=game.id, created_at=now,
                       expires_at=now + CONFIRM_WITHIN)
    s.add(row)
    s.flush()
    return row


def start_observing(s: Session, settings: Settings, game: Game, address: str, *, now: datetime) -> Observer:
    found = observer_of(s, game, address)
    if found is None:
        found = Observer(game_id=game.id, address=address.lower(), status="active", confirmed_at=now)
        s.add(found)
        s.flush()
    found.status, found.confirmed_at, found.left_at = "active", now, None
    found.token = signed.sign(settings, UNSUBSCRIBE, found.id)
    s.flush()
    return found


def stop_observing(s: Session, code: str, address: str, *, now: datetime) -> Observer:
    """``UNOBSERVE``: ``address`` no longer observes game ``code``."""
    try:
        game = get_game(s, code)
    except NotFound:
        raise NotFound(f"there is no game {code}") from None
    state = observer_state(s, game, address, now=now)
    step(OBSERVER, state, "unsubscribe", game.code)   # the observer machine: confirmed or pending, else refused
    found = observer_of(s, game, address)
    if found is None:   # a confirmation still waited: it is void, and the address is recorded as gone
        found = Observer(game_id=game.id, address=address.lower(), status="left", confirmed_at=now)
        s.add(found)
    for row in s.scalars(select(Confirmation).where(Confirmation.kind == "observe", Confirmation.game_id == game.id,
                                                    Confirmation.address == address.lower(),
                                                    Confirmation.done_at.is_(None))):
        row.expires_at = now - timedelta(seconds=1)   # answered later, it has expired
    found.status, found.left_at = "left", now
    s.flush()
    return found


def unsubscribe(s: Session, settings: Settings, token: str, *, now: datetime) -> Observer | None:
    """The observer a good unsubscribe token names, unsubscribed (None: no such observer)."""
    row_id = signed.verify(settings, UNSUBSCRIBE, token)
    found = s.get(Observer, row_id) if row_id is not None else None
    if found is None:
        return None
    if found.status == "active":
        found.status, found.left_at = "left", now
    return found
