"""The community's questions to the store (issue 31): which players are away from a turn (resigned, or absent
while the game lets the autopilot play), who observes a game, sign-ups, departures, absences and observers'
confirmations, looked up by meaning (:mod:`referee.games` holds what is done with them)."""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime
from urllib.parse import quote

from sqlalchemy import bindparam, delete, select
from sqlalchemy.orm import Session

from ..common.config import Settings
from .community_models import (
    Absence,
    Confirmation,
    Departure,
    FormerHolder,
    GameCommunity,
    Observer,
    PressMessage,
    SignUp,
)
from .models import Game, Player


def resigned(s: Session, game: Game) -> set[int]:
    """Ids of ``game``'s players who resigned (their robot plays on without them; they get no more mail),
    unless the robot went to a new player since (a GM ``REPLACE``, or a ``JOIN`` accepted for the seat)."""
    return set(s.scalars(_RESIGNED, {"game": game.id}))


#: the statements asked on every due turn, built once (building one costs about as much as running it)
_RESIGNED = select(Departure.player_id).join(Player, Player.id == Departure.player_id).where(
    Departure.game_id == bindparam("game"), Player.email == Departure.address)
_ABSENT = select(Absence.player_id).join(Player, Player.id == Absence.player_id).where(
    Player.game_id == bindparam("game"), Absence.starts <= bindparam("at"), Absence.ends > bindparam("at"))
_AUTOPILOT_DEPARTURES = select(Departure).where(Departure.game_id == bindparam("game"),
                                                Departure.policy == "autopilot")
_OBSERVERS = select(Observer).where(Observer.game_id == bindparam("game"), Observer.status == "active") \
    .order_by(Observer.id)


def away(s: Session, game: Game, at: datetime | None, gone: set[int] | None = None) -> set[int]:
    """Ids of ``game``'s players the turn whose deadline is ``at`` does not wait for: resigned ones, and
    those absent then when the game lets the missing orders policy play for an absent player. ``gone``: the
    game's :func:`resigned`, where the caller has it."""
    out = set(resigned(s, game) if gone is None else gone)
    row = s.get(GameCommunity, game.id)
    if at is not None and row is not None and row.on_absence == "autopilot":
        out |= set(s.scalars(_ABSENT, {"game": game.id, "at": at}))
    return out


def away_in(s: Session, games: Collection[Game], at: dict[int, datetime | None]) -> dict[int, set[int]]:
    """:func:`away` of each of ``games`` (by id; ``at``: each game's deadline) in three queries, not three a game
    (the tick's scan of the due games)."""
    ids = [game.id for game in games]
    out: dict[int, set[int]] = {i: set() for i in ids}
    for game_id, player_id in s.execute(_RESIGNED_IN, {"games": ids}):
        out[game_id].add(player_id)
    rows = {row.game_id: row for row in s.scalars(_COMMUNITY_IN, {"games": ids})}
    for game_id in ids:
        row, when = rows.get(game_id), at.get(game_id)
        if when is not None and row is not None and row.on_absence == "autopilot":
            out[game_id] |= set(s.scalars(_ABSENT, {"game": game_id, "at": when}))
    return out


_RESIGNED_IN = select(Departure.game_id, Departure.player_id).join(Player, Player.id == Departure.player_id).where(
    Departure.game_id.in_(bindparam("games", expanding=True)), Player.email == Departure.address)
_COMMUNITY_IN = select(GameCommunity).where(GameCommunity.game_id.in_(bindparam("games", expanding=True)))


def played_by_autopilot(s: Session, game: Game, at: datetime | None) -> set[str]:
    """Robots of ``game`` whose missing programs the autopilot plays whatever the game's missing-orders policy:
    those of players who resigned while the game said ``ON RESIGN AUTOPILOT``, and of players absent at ``at``
    while it says ``ON ABSENCE AUTOPILOT``."""
    gone = resigned(s, game)
    emails = {p.id: p.email for p in game.players}
    robots = {d.robot for d in s.scalars(_AUTOPILOT_DEPARTURES, {"game": game.id})
              if d.player_id in gone and emails.get(d.player_id) == d.address}   # this holder's, not an earlier one's
    absent = away(s, game, at, gone) - gone
    return robots | {p.robot for p in game.players if p.id in absent}


def observers(s: Session, game: Game) -> list[Observer]:
    """The addresses that get ``game``'s public turn results, with their unsubscribe tokens."""
    return list(s.scalars(_OBSERVERS, {"game": game.id}))


def unsubscribe_headers(settings: Settings, game_code: str, token: str) -> dict[str, str]:
    """The headers of an observer mail: RFC 2369 ``List-Unsubscribe`` (a mailto: whose subject carries the
    signed token, :mod:`referee.games.observers`) and RFC 8058 ``List-Unsubscribe-Post``."""
    subject = quote(f"UNOBSERVE {game_code} [unobserve {token}]")
    return {"List-Unsubscribe": f"<mailto:{settings.referee_address}?subject={subject}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"}


def archived_press(s: Session, game: Game) -> list[dict[str, object]]:
    """The press the archive shows, oldest first: all of it once ``game`` is over and its GM said
    ``PRESS ARCHIVE ON``; else none. Grey press stays anonymous; no address is ever shown."""
    row = s.get(GameCommunity, game.id)
    if game.status != "finished" or row is None or not row.press_archive:
        return []
    robots = {p.id: p.robot for p in game.players}
    return [{"turn": m.turn_number, "sender": robots.get(m.sender_id or 0, "?") if m.mode == "white" else None,
             "to": robots.get(m.to_id, "?") if m.to_id is not None else None, "text": m.text}
            for m in s.scalars(select(PressMessage).where(PressMessage.game_id == game.id).order_by(PressMessage.id))]


# -- observers and their confirmations ------------------------------------------------------------------------
def observer_row(s: Session, game: Game, address: str) -> Observer | None:
    """``address``'s observer row of ``game`` (active or left), or None."""
    return s.scalars(select(Observer).where(Observer.game_id == game.id, Observer.address == address.lower())).first()


def observing(s: Session, address: str) -> list[Observer]:
    """The games ``address`` (lower case) observes now, as their observer rows, oldest first."""
    return list(s.scalars(select(Observer).where(Observer.address == address, Observer.status == "active")
                          .order_by(Observer.id)))


def observe_confirmations(s: Session, address: str, *, game: Game | None = None,
                          now: datetime | None = None) -> list[Confirmation]:
    """The confirmations to observe sent to ``address`` (lower case) and not answered, the latest first: of
    ``game`` only when given; only those still open at ``now`` when given."""
    query = select(Confirmation).where(Confirmation.address == address, Confirmation.kind == "observe",
                                       Confirmation.done_at.is_(None))
    if game is not None:
        query = query.where(Confirmation.game_id == game.id)
    if now is not None:
        query = query.where(Confirmation.expires_at > now)
    return list(s.scalars(query.order_by(Confirmation.id.desc())))


# -- sign-up, departures, absences ----------------------------------------------------------------------------
def pending_signups(s: Session, game: Game) -> list[SignUp]:
    """``game``'s sign-ups waiting for its GM, in the order they came."""
    return list(s.scalars(select(SignUp).where(SignUp.game_id == game.id, SignUp.status == "pending")
                          .order_by(SignUp.id)))


def open_departures(s: Session, game: Game) -> list[Departure]:
    """``game``'s departures that left a seat open (``on_resign = open``)."""
    return list(s.scalars(select(Departure).where(Departure.game_id == game.id, Departure.policy == "open")))


def absences_of(s: Session, game: Game) -> list[tuple[Player, Absence]]:
    """``game``'s players' absences, soonest first."""
    rows = s.execute(select(Player, Absence).join(Absence, Absence.player_id == Player.id)
                     .where(Player.game_id == game.id).order_by(Absence.starts))
    return [(p, a) for p, a in rows]


def absence_of(s: Session, player: Player) -> Absence | None:
    """The player's absence, if one is announced."""
    return s.scalars(select(Absence).where(Absence.player_id == player.id)).first()


def drop_absences(s: Session, player_ids: Collection[int]) -> None:
    """Forget the absences of these players (a bulk delete: the session does not see it)."""
    s.execute(delete(Absence).where(Absence.player_id.in_(list(player_ids))))


def absent_at(s: Session, player: Player, now: datetime) -> bool:
    """Whether the player's announced absence covers ``now``."""
    return s.scalars(select(Absence.id).where(Absence.player_id == player.id, Absence.starts <= now,
                                              Absence.ends > now)).first() is not None


def former_holders(s: Session, player: Player) -> list[FormerHolder]:
    """Those who held ``player``'s robot before, the latest first."""
    return list(s.scalars(select(FormerHolder).where(FormerHolder.player_id == player.id)
                          .order_by(FormerHolder.id.desc())))


def last_holding(s: Session, address: str) -> FormerHolder | None:
    """The seat ``address`` (lower case) left last, or None."""
    return s.scalars(select(FormerHolder).where(FormerHolder.address == address).order_by(FormerHolder.id.desc())
                     ).first()

