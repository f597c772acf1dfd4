"""Observers (issue 31): anyone may follow a game's public turn results by mail (no hands, no keys, no
order forms). ``OBSERVE RR-7`` only sends a confirmation mail to the address that asked; the results
follow once it is answered (:func:`referee.games.own.confirm`). Every observer mail carries an
unsubscribe address with a signed token (``List-Unsubscribe``, RFC 2369/8058): a mail to it, or
``UNOBSERVE RR-7`` from the address, or a short mail in words ("unsubscribe", "stop", "remove me",
"abmelden", "désabonner", "darme de baja", "afmelden": :func:`referee.orders.community_phrases.asks_to_stop`)
ends the subscription (:func:`stop_all`)."""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime, timedelta

from sqlalchemy.orm import Session

from ..common.config import Settings
from ..store.community import observe_confirmations, observer_row, observing
from ..store.community_models import Confirmation, Observer
from ..store.errors import GameStateError, NotFound
from ..store.models import Game
from ..store.queries import get_game
from . import signed
from .states import OBSERVER, observer_state, step

#: how long a confirmation mail (to observe a game, to take a new address) can be answered
CONFIRM_WITHIN = timedelta(days=7)
#: the letter of unsubscribe tokens (:mod:`.signed`)
UNSUBSCRIBE = "o"


def _game(s: Session, code: str, public: Collection[str]) -> Game:
    """The game ``code`` when LIST shows it (``public``); any other answered alike, whether or not it exists:
    nobody learns of a game that is not listed by asking to observe it."""
    try:
        game = get_game(s, code)
    except NotFound:
        game = None
    if game is None or game.code not in public:
        raise NotFound(f"no game {code.upper()} can be observed (LIST shows the games)")
    return game


def observer_of(s: Session, game: Game, address: str) -> Observer | None:
    return observer_row(s, game, address)


def ask_observe(s: Session, code: str, address: str, *, now: datetime, public: Collection[str]) -> Confirmation:
    """``address`` asks to observe game ``code`` (one of the ``public`` ones, those LIST shows): a
    confirmation, to be mailed to ``address``."""
    game = _game(s, code, public)
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
    """``UNOBSERVE``: ``address`` no longer observes game ``code`` (a game it does not observe is answered
    alike whether or not it exists)."""
    try:
        game: Game | None = get_game(s, code)
    except NotFound:
        game = None
    if game is None:   # answered as a game it does not observe
        raise GameStateError(f"you do not observe {code.upper()}")
    state = observer_state(s, game, address, now=now)
    step(OBSERVER, state, "unsubscribe", game.code)   # the observer machine: confirmed or pending, else refused
    found = observer_of(s, game, address)
    if found is None:   # a confirmation still waited: it is void, and the address is recorded as gone
        found = Observer(game_id=game.id, address=address.lower(), status="left", confirmed_at=now)
        s.add(found)
    for row in observe_confirmations(s, address.lower(), game=game):
        row.expires_at = now - timedelta(seconds=1)   # answered later, it has expired
    found.status, found.left_at = "left", now
    s.flush()
    return found


def stop_all(s: Session, address: str, *, now: datetime) -> list[str]:
    """``address`` asked in words for no more mail ("unsubscribe", "stop sending me these"): every game it
    observes is left, and a confirmation it has not answered yet is void. Returns the games' codes left
    (empty: it observed nothing and was asked nothing)."""
    address = address.lower()
    left = []
    for found in observing(s, address):
        found.status, found.left_at = "left", now
        game = s.get(Game, found.game_id)
        left.append(game.code if game else str(found.game_id))
    for row in observe_confirmations(s, address, now=now):
        row.expires_at = now   # the confirmation mail can no longer be answered
        game = s.get(Game, row.game_id) if row.game_id is not None else None
        if game is not None and game.code not in left:
            left.append(game.code)
    s.flush()
    return left


def observes(s: Session, address: str, *, now: datetime) -> bool:
    """Whether ``address`` observes a game, or was sent a confirmation to observe one it may still answer."""
    address = address.lower()
    return bool(observing(s, address) or observe_confirmations(s, address, now=now))


def unsubscribe(s: Session, settings: Settings, token: str, *, now: datetime) -> Observer | None:
    """The observer a good unsubscribe token names, unsubscribed (None: no such observer)."""
    row_id = signed.verify(settings, UNSUBSCRIBE, token)
    found = s.get(Observer, row_id) if row_id is not None else None
    if found is None:
        return None
    if found.status == "active":
        found.status, found.left_at = "left", now
    return found
