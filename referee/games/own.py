"""A player's own commands (issue 31): RESIGN, SET ADDRESS (and its confirmation), ABSENT, GAMES, and
SET PICTURES (issue 42).

A player is known by her address of record: the key of any of her robots (on a BEGIN line, or a reply
to her own mail) lets her act on all the games she plays from that address.

- :func:`resign`: in a forming game the seat is given up (another player may JOIN it); in a running
  game the robot plays on by the missing orders policy while the game's ``on_resign`` says ``open``
  (the GM may seat someone new: ``REPLACE``, or a JOIN the GM accepts) or ``autopilot`` (to the end).
  Either way she gets no more mail of that game, and her orders there are no longer waited for.
- :func:`ask_address` and :func:`confirm`: a new address of record takes effect only when a mail to it
  (with a signed token, :mod:`.signed`) is answered from it.
- :func:`set_absence`: away from one day to another (within the ranges of
  :mod:`referee.orders.community_ranges`); the GM sees it; by the game's ``on_absence`` the
  turn waits (the GM may extend it) or does not wait for her (the missing orders policy plays).
- :func:`my_games`: every game, robot and what is due.
- :func:`set_pictures`: the pictures the turn mails of one seat carry (all, stages: no animation, none).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy.orm import Session

from ..common.config import Settings
from ..orders.community_ranges import absence_problem
from ..store.attention import touch
from ..store.community import absence_of, absences_of, drop_absences, resigned
from ..store.community_models import Absence, AddressPrefs, Confirmation, Departure, Observer
from ..store.errors import GameStateError, InvalidValue
from ..store.models import Game, Player
from ..store.queries import active_orders, open_turn, player_at, players_at
from . import signed
from .common import audit, new_secret
from .observers import CONFIRM_WITHIN, start_observing
from .signup import settings_view
from .states import SEAT, leave_seat, seat_state, step

#: the letter of confirmation tokens (:mod:`.signed`)
CONFIRM = "c"


def seats_of(s: Session, address: str) -> list[Player]:
    """Every robot ``address`` plays in a game that is not over (and did not resign), oldest first."""
    return [p for p in players_at(s, address, playing=True) if p.id not in resigned(s, p.game)]


# -- RESIGN ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Resigned:
    game: Game
    robot: str
    #: ``left`` (a forming game: the seat is free again), ``open`` or ``autopilot`` (see the module docstring)
    outcome: str


def resign(s: Session, player: Player, *, now: datetime) -> Resigned:
    game = player.game
    if game.status == "finished":
        raise GameStateError(f"{game.code} is over")
    if player.id in resigned(s, game) or player.status != "active":
        raise GameStateError(f"you no longer play {player.robot} in {game.code}")
    actor = f"mail:{player.email}"
    if game.status == "forming":
        robot = player.robot
        audit(s, "player.resign", actor=actor, game=game, now=now, details={"robot": robot, "email": player.email})
        game.players.remove(player)
        s.flush()
        return Resigned(game, robot, "left")
    policy = settings_view(s, game).on_resign
    leave_seat(s, player, "resigned", now=now)   # by the seat machine; before her key changes
    player.secret = new_secret()   # her key and reply addresses no longer give orders for the robot
    s.add(Departure(player_id=player.id, game_id=game.id, robot=player.robot, address=player.email, policy=policy,
                    at=now))
    audit(s, "player.resign", actor=actor, game=game, turn_number=game.turn_number, now=now,
          details={"robot": player.robot, "email": player.email, "policy": policy})
    s.flush()
    return Resigned(game, player.robot, policy)


# -- SET PICTURES ---------------------------------------------------------------------------------------
#: what a seat's turn mails may carry (``players.pictures``; ``all`` until the player says otherwise)
PICTURES = ("all", "stages", "none")


def set_pictures(s: Session, player: Player, pictures: str, *, now: datetime) -> Player:
    """Keep ``pictures`` for the turn mails of ``player``'s seat (the seat of the key the command came with)."""
    if pictures not in PICTURES:
        raise InvalidValue(f"pictures {pictures!r}: one of {', '.join(p.upper() for p in PICTURES)}")
    if player.pictures != pictures:
        audit(s, "player.pictures", actor=f"mail:{player.email}", game=player.game, now=now,
              details={"robot": player.robot, "pictures": pictures, "was": player.pictures})
    player.pictures = pictures
    return player


# -- SET ADDRESS and confirmations ------------------------------------------------------------------------
def ask_address(s: Session, settings: Settings, old: str, new: str, *, now: datetime) -> Confirmation:
    """A change of address of record from ``old`` to ``new``, waiting for ``new`` to confirm it."""
    old, new = old.lower(), new.lower()
    if new == old:
        raise InvalidValue(f"{new} is your address already")
    if new.partition("@")[2] == settings.referee_address.lower().partition("@")[2] and \
            new.partition("@")[0].partition("+")[0] == settings.referee_address.lower().partition("@")[0]:
        raise InvalidValue(f"{new} is the referee's own address")
    for player in seats_of(s, old):
        other = player_at(s, player.game, new)
        if other is not None:
            raise InvalidValue(f"{new} plays {other.robot} in {player.game.code} already")
    row = Confirmation(kind="address", address=new, old_address=old, created_at=now,
                       expires_at=now + CONFIRM_WITHIN)
    s.add(row)
    s.flush()
    return row


def confirmation_token(settings: Settings, row: Confirmation) -> str:
    return signed.sign(settings, CONFIRM, row.id)


@dataclass(frozen=True)
class Confirmed:
    kind: str
    address: str
    old_address: str | None = None
    #: the robots whose address of record changed
    players: tuple[Player, ...] = ()
    observer: Observer | None = None


class NotConfirmed(Exception):
    """A token that confirms nothing (unknown, used, expired, or answered from another address)."""


def confirm(s: Session, settings: Settings, token: str, sender: str, *, now: datetime) -> Confirmed:
    """Carry out what ``token`` (from a confirmation mail) confirms, answered from ``sender``."""
    row_id = signed.verify(settings, CONFIRM, token)
    row = s.get(Confirmation, row_id) if row_id is not None else None
    if row is None:
        raise NotConfirmed("this confirmation is not known")
    if row.done_at is not None:
        raise NotConfirmed("this was confirmed already")
    if now > row.expires_at:
        raise NotConfirmed("this confirmation has expired: send the command again")
    if sender.lower() != row.address:
        raise NotConfirmed(f"the confirmation must come from {row.address}, the address it was sent to")
    row.done_at = now
    if row.kind == "observe":
        game = s.get(Game, row.game_id)
        if game is None:
            raise NotConfirmed("that game is gone")
        return Confirmed("observe", row.address, observer=start_observing(s, settings, game, row.address, now=now))
    old = row.old_address or ""
    changed = []
    for player in seats_of(s, old):
        clash = player_at(s, player.game, row.address)
        if clash is not None:
            continue
        player.email = row.address
        audit(s, "player.address", actor=f"mail:{old}", game=player.game, now=now,
              details={"robot": player.robot, "old": old, "new": row.address})
        changed.append(player)
    prefs = s.get(AddressPrefs, old)
    if prefs is not None and s.get(AddressPrefs, row.address) is None:
        s.add(AddressPrefs(address=row.address, show_address=prefs.show_address))
    s.flush()
    return Confirmed("address", row.address, old, tuple(changed))


# -- ABSENT ---------------------------------------------------------------------------------------------
def set_absence(s: Session, address: str, starts: datetime | None, last: datetime | None, *,
                now: datetime) -> list[Player]:
    """``address`` is away from day ``starts`` to day ``last`` (both included; None: no longer away), in
    every game she plays. Returns those robots."""
    players = seats_of(s, address)
    if not players:
        raise GameStateError("you play in no game that is not over")
    if starts is not None and last is not None and \
            (why := absence_problem(starts.date(), last.date(), now.date())) is not None:
        raise InvalidValue(why)   # checked before any date arithmetic: ABSENT 9999-12-30 TO 9999-12-31
    for p in players:   # by the seat machine
        step(SEAT, seat_state(s, p, now=now), "away" if starts is not None else "back", p.robot)
    ids = [p.id for p in players]
    drop_absences(s, ids)
    touch(s, {p.game_id for p in players})   # (a bulk delete: the session does not see it)
    if starts is not None and last is not None:
        for p in players:
            s.add(Absence(player_id=p.id, starts=starts, ends=last + timedelta(days=1), created_at=now))
            audit(s, "player.absent", actor=f"mail:{address}", game=p.game, now=now,
                  details={"robot": p.robot, "from": starts.date().isoformat(), "to": last.date().isoformat()})
    s.flush()
    return players


def absences(s: Session, game: Game) -> list[tuple[Player, Absence]]:
    """``game``'s players' absences, soonest first."""
    return absences_of(s, game)


# -- GAMES ----------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class MyGame:
    code: str
    status: str
    robot: str
    turn: int
    deadline: datetime | None
    #: ``orders in``, ``orders due``, ``nothing due``
    due: str
    away: tuple[datetime, datetime] | None


def my_games(s: Session, address: str) -> list[MyGame]:
    out = []
    for p in seats_of(s, address):
        game = p.game
        turn = open_turn(s, game)
        due = "nothing due (the game has not started)" if game.status == "forming" else "nothing due"
        if turn is not None:
            order = active_orders(s, turn).get(p.id)
            due = "orders in" if order is not None and order.program else "orders due"
        absence = absence_of(s, p)
        out.append(MyGame(game.code, game.status, p.robot, game.turn_number, turn.deadline if turn else None, due,
                          (absence.starts, absence.ends - timedelta(days=1)) if absence else None))
    return out
