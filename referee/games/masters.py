"""Game masters as people of the installation (issue 31): who the GMs are, which games each may run.

- The configured GM (``gm_address`` with ``gm_secret`` in the settings) is the first GM and needs no row:
  a one-GM installation configures nothing new.
- The operator adds more (:func:`add_gm`: ``referee gm-admin add``); each has a key of their own, shown
  once and kept only as a SHA-256 digest (keys are random, long words: a plain digest is enough).
- A game's master is its ``gm_address`` when that is a GM of the installation; a game without one (made
  at the command line), or whose master is no GM here, belongs to the configured GM (:func:`master_of`):
  that is how an installation's games before many GMs stay the configured GM's, unchanged.
- Co-masters (:func:`add_comaster`) may run a game beside its master; the operator moves a game to another
  GM (:func:`transfer`).

Every change is written to the audit log with its actor.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.orm import Session

from ..common.config import Settings
from ..common.keys import MAX_KEY, same_key
from ..mailparse.senders import sender_address
from ..store.community_models import CoMaster, GameMaster
from ..store.errors import Duplicate, InvalidValue, NotFound
from ..store.masters import (
    active_gm_addresses,
    comaster_addresses,
    comasters_by_game,
    drop_comaster,
    games_comastered_by,
    gm_row,
    gm_rows,
    unfinished_games_naming,
)
from ..store.models import Game
from ..store.queries import list_games, locked_game
from ..store.types import utcnow
from .common import audit, normalize_email


def new_key() -> str:
    """A fresh GM key: 24 URL-safe characters (144 bits), one word on a BEGIN GM line."""
    return secrets.token_urlsafe(18)


def digest(key: str) -> str:
    return hashlib.sha256(key.strip().encode("utf-8", "surrogatepass")).hexdigest()


def configured_gm(settings: Settings) -> str | None:
    """The configured GM's address (lower case), or None."""
    if not settings.gm_address:
        return None
    return sender_address(settings.gm_address) or settings.gm_address.strip().lower()


def _norm(address: str) -> str:
    return (sender_address(address) or address).strip().lower()


def added_gm(s: Session, address: str) -> GameMaster | None:
    """The active added GM at ``address``, or None."""
    return gm_row(s, _norm(address), active=True)


def is_gm(s: Session, settings: Settings, address: str | None) -> bool:
    """Whether ``address`` is a GM of the installation (the configured one, or added and not removed)."""
    if not address:
        return False
    return _norm(address) == configured_gm(settings) or added_gm(s, address) is not None


def gm_addresses(s: Session) -> set[str]:
    """Every added GM's address that is not removed (lower case)."""
    return active_gm_addresses(s)


def key_fits(s: Session, settings: Settings, address: str, key: str | None) -> bool:
    """Whether ``key`` is the key of the GM at ``address`` (never raises, whatever the key holds)."""
    if _norm(address) == configured_gm(settings):
        return same_key(key, settings.gm_secret)
    row = added_gm(s, address)
    if row is None or not key or len(key) > MAX_KEY:
        return False
    return same_key(digest(key), row.secret_hash)


# -- who runs a game ----------------------------------------------------------------------------------------
def master_of(s: Session, settings: Settings, game: Game) -> str | None:
    """The game's master: its ``gm_address`` when that is a GM here; else the configured GM (an old game, a
    game made at the command line, a game whose master is no GM here); else its ``gm_address`` as recorded."""
    own = game.gm_address
    if own and is_gm(s, settings, own):
        return own.lower()
    return configured_gm(settings) or (own.lower() if own else None)


def comasters(s: Session, game: Game) -> list[str]:
    """The game's co-masters, in the order added."""
    return comaster_addresses(s, game)


def masters_of(s: Session, game: Game, settings: Settings | None = None) -> list[str]:
    """The addresses to tell about ``game``: its master first, then its co-masters. Without ``settings``
    the game's ``gm_address`` stands for the master (none for an old game: the caller falls back to the
    configured ``gm_address``)."""
    master = master_of(s, settings, game) if settings is not None else (game.gm_address or "").lower() or None
    return list(dict.fromkeys(a for a in [master, *comasters(s, game)] if a))


def may_master(s: Session, settings: Settings, address: str | None, game: Game) -> bool:
    """Whether the GM at ``address`` may run ``game``: a GM of the installation who is its master or one of
    its co-masters."""
    if not is_gm(s, settings, address):
        return False
    assert address is not None
    who = _norm(address)
    return who == master_of(s, settings, game) or who in comasters(s, game)


# -- the operator: adding, removing, listing GMs; moving games ------------------------------------------
@dataclass(frozen=True)
class GmRow:
    address: str
    #: ``configured`` (the settings' gm_address) or ``added``
    source: str
    active: bool
    #: codes of the games this GM masters, and co-masters
    masters: list[str]
    comasters: list[str]


def add_gm(s: Session, settings: Settings, address: str, *, actor: str, now: datetime | None = None
           ) -> tuple[GameMaster, str]:
    """Add a GM (or bring a removed one back) with a fresh key; returns the row and the key (shown once)."""
    now = now or utcnow()
    addr = normalize_email(address)
    if addr == configured_gm(settings):
        raise Duplicate(f"{addr} is the configured GM (gm_address); their key is gm_secret in the settings")
    if addr == _norm(settings.referee_address):
        raise InvalidValue(f"{addr} is the referee's own address (referee_address): it cannot be a game master")
    key = new_key()
    row = gm_row(s, addr)
    if row is not None and row.active:
        raise Duplicate(f"{addr} is already a GM (a new key: referee gm-admin new-key {addr})")
    if row is None:
        row = GameMaster(address=addr, secret_hash=digest(key), active=True, added_at=now, added_by=actor,
                         secret_changed_at=now)
        s.add(row)
    else:
        row.active, row.secret_hash, row.added_at, row.added_by = True, digest(key), now, actor
        row.secret_changed_at, row.removed_at = now, None
    s.flush()
    audit(s, "gm.add", actor=actor, now=now, details={"address": addr})
    return row, key


def new_gm_key(s: Session, settings: Settings, address: str, *, actor: str, now: datetime | None = None) -> str:
    """A fresh key for the added GM at ``address`` (the old one stops working); returns it."""
    now = now or utcnow()
    if _norm(address) == configured_gm(settings):
        raise InvalidValue("the configured GM's key is gm_secret in the settings file: change it there")
    row = added_gm(s, address)
    if row is None:
        raise NotFound(f"{_norm(address)} is not a GM of this installation (referee gm-admin list)")
    key = new_key()
    row.secret_hash, row.secret_changed_at = digest(key), now
    audit(s, "gm.secret", actor=actor, now=now, details={"address": row.address})
    return key


def remove_gm(s: Session, settings: Settings, address: str, *, actor: str, now: datetime | None = None) -> list[str]:
    """Remove an added GM: their key stops working, their co-masterships end. Refused while they master a
    game not finished (transfer it first). Returns the codes of the games they co-mastered."""
    now = now or utcnow()
    if _norm(address) == configured_gm(settings):
        raise InvalidValue("the configured GM is removed from the settings file (gm_address), not here")
    row = added_gm(s, address)
    if row is None:
        raise NotFound(f"{_norm(address)} is not a GM of this installation (referee gm-admin list)")
    running = [g.code for g in unfinished_games_naming(s, row.address)]
    if running:
        raise InvalidValue(f"{row.address} masters {', '.join(running)}: transfer "
                           f"{'it' if len(running) == 1 else 'them'} first (referee gm-admin transfer GAME ADDRESS)")
    helped = [g.code for g in games_comastered_by(s, row.address)]
    drop_comaster(s, row.address)
    row.active, row.removed_at = False, now
    audit(s, "gm.remove", actor=actor, now=now, details={"address": row.address, "comastered": helped})
    return helped


def named_games(s: Session, settings: Settings, address: str) -> list[str]:
    """Codes of the unfinished games that name ``address`` as their GM but are run by someone else (it was no
    GM here when they were made): adding that GM hands them over."""
    addr = _norm(address)
    return [g.code for g in unfinished_games_naming(s, addr) if master_of(s, settings, g) != addr]


def list_gms(s: Session, settings: Settings) -> list[GmRow]:
    """Every GM: the configured one first, then the added ones (removed ones last), with their games."""
    games = list_games(s)
    helpers = comasters_by_game(s)

    master = {g.id: master_of(s, settings, g) for g in games}

    def row_for(address: str, source: str, active: bool) -> GmRow:
        return GmRow(address, source, active, [g.code for g in games if active and master[g.id] == address],
                     [g.code for g in games if address in helpers.get(g.id, [])])

    out = [row_for(c, "configured", True)] if (c := configured_gm(settings)) else []
    added = gm_rows(s)
    out.extend(row_for(r.address, "added", r.active) for r in added if r.address != c)
    return out


def transfer(s: Session, settings: Settings, code: str, address: str, *, actor: str,
             now: datetime | None = None) -> tuple[Game, str | None]:
    """Make the GM at ``address`` the master of game ``code``; returns the game and its master before."""
    now = now or utcnow()
    addr = normalize_email(address)
    if not is_gm(s, settings, addr):
        raise InvalidValue(f"{addr} is not a GM of this installation (add them first: referee gm-admin add {addr})")
    game = locked_game(s, code)
    old = master_of(s, settings, game)
    if old == addr and game.gm_address:
        raise InvalidValue(f"{addr} already masters {game.code}")
    game.gm_address = addr
    drop_comaster(s, addr, game)
    audit(s, "game.transfer", actor=actor, game=game, now=now, details={"old": old, "new": addr})
    return game, old


# -- a game's master: its co-masters ----------------------------------------------------------------------
def add_comaster(s: Session, settings: Settings, game: Game, address: str, *, actor: str,
                 now: datetime | None = None) -> str:
    """Let the GM at ``address`` run ``game`` beside its master; returns the address."""
    now = now or utcnow()
    addr = normalize_email(address)
    if not is_gm(s, settings, addr):
        raise InvalidValue(f"{addr} is not a GM of this installation: the operator adds GMs "
                           "(referee gm-admin add)")
    if addr == master_of(s, settings, game):
        raise InvalidValue(f"{addr} is the master of {game.code}")
    if addr in comasters(s, game):
        raise Duplicate(f"{addr} already co-masters {game.code}")
    s.add(CoMaster(game_id=game.id, address=addr, added_at=now, added_by=actor))
    s.flush()
    audit(s, "game.comaster.add", actor=actor, game=game, now=now, details={"address": addr})
    return addr


def remove_comaster(s: Session, game: Game, address: str, *, actor: str, now: datetime | None = None) -> str:
    addr = _norm(address)
    if addr not in comasters(s, game):
        raise NotFound(f"{addr} does not co-master {game.code}")
    drop_comaster(s, addr, game)
    audit(s, "game.comaster.remove", actor=actor, game=game, now=now or utcnow(), details={"address": addr})
    return addr
