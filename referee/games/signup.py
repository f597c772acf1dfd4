"""Signing up for a game (issue 31): the GM opens a game, players JOIN, the GM accepts or refuses.

- :func:`open_signup` (GM ``OPEN RR-7 SEATS 6 UNTIL 2026-12-05``), :func:`close_signup`, and the game's
  community settings (:func:`set_setting`: ``AUTOSTART``, press, what happens when a player resigns or is away).
- :func:`join`: a sign-up waits for the GM; in a forming game it asks for a new seat, in a running game
  for a seat its player left open (``RESIGN`` with the game's ``on_resign = open``).
- :func:`decide`: the GM's ``ACCEPT`` seats the player (and starts the game once full under
  ``AUTOSTART``), ``REFUSE`` turns the sign-up down.
- :func:`open_games` (``LIST``) and :func:`whois` (``WHOIS``), which show a player's address only where
  she allowed it (``SET WHOIS ON``).

A game's GM, until games have GMs of their own (issue 31's other half), is :func:`masters`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from ..common.config import Settings
from ..store.community import open_departures, pending_signups
from ..store.community_models import (
    ABSENCE_POLICIES,
    PRESS_MODES,
    RESIGN_POLICIES,
    AddressPrefs,
    GameCommunity,
    SignUp,
)
from ..store.errors import GameStateError, InvalidValue, NotFound
from ..store.models import Game, Player, Turn
from ..store.queries import (
    get_game,
    load_course,
    locked_game,
    open_turn,
    players_at,
    players_of_robot,
    unfinished_games,
)
from .common import MAX_PLAYERS, RESERVED_ROBOT_NAMES, ROBOT_RE, audit, course_players
from .lifecycle import start_and_announce
from .masters import masters_of
from .players import add_player, replace_player
from .states import SEAT, signup_state, step

#: robot names offered to a JOIN without AS, in this order (the first free one)
OFFERED_NAMES = ("Twonky", "Hammer", "Zoom", "Squash", "Spinbot", "Trundle", "Puffer", "Gizmo", "Klaxon",
                 "Rivet", "Sprocket", "Dynamo", "Widget", "Bolt", "Servo", "Piston")

#: the settings a GM may change, with the values each takes
SETTINGS: dict[str, tuple[Any, ...]] = {"autostart": (True, False), "press": PRESS_MODES,
                                        "press_archive": (True, False), "on_resign": RESIGN_POLICIES,
                                        "on_absence": ABSENCE_POLICIES}


class SignUpRefused(Exception):
    """A JOIN (or a GM's decision) that cannot be taken; the message says why, in the player's words."""


def masters(s: Session, settings: Settings, game: Game) -> list[str]:
    """The addresses of ``game``'s game masters: its master first, then its co-masters."""
    return masters_of(s, game, settings)


# -- the game's settings ---------------------------------------------------------------------------------
def community_of(s: Session, game: Game) -> GameCommunity:
    """``game``'s community settings (a new row, with the defaults, when it has none yet)."""
    row = s.get(GameCommunity, game.id)
    if row is None:
        row = GameCommunity(game_id=game.id, open=False, seats=None, until=None, autostart=False, press="white",
                            press_archive=False, on_resign="open", on_absence="wait")
        s.add(row)
        s.flush()
    return row


def settings_view(s: Session, game: Game) -> GameCommunity:
    """``game``'s community settings without writing (the defaults when it has none)."""
    return s.get(GameCommunity, game.id) or GameCommunity(
        game_id=game.id, open=False, seats=None, until=None, autostart=False, press="white", press_archive=False,
        on_resign="open", on_absence="wait")


def seat_limit(game: Game) -> int:
    """The most players ``game``'s course takes."""
    return min(MAX_PLAYERS, course_players(load_course(game.course))[1])


def open_signup(s: Session, game: Game | str, *, seats: int | None, until: datetime | None, actor: str,
                now: datetime) -> GameCommunity:
    """Open a forming game for sign-up: ``seats`` in all (None: as many as the course takes), JOINs taken
    until ``until`` (None: until the game starts)."""
    game = locked_game(s, game)
    if game.status != "forming":
        raise GameStateError(f"{game.code} is {game.status}: only a forming game opens for sign-up")
    most = seat_limit(game)
    if seats is not None and not 1 <= seats <= most:
        raise InvalidValue(f"{game.code} on {game.course} takes 1 to {most} players, not {seats}")
    if seats is not None and seats < len(game.players):
        raise InvalidValue(f"{game.code} has {len(game.players)} players already: SEATS {seats} is too few")
    if until is not None and until <= now:
        raise InvalidValue(f"{until:%Y-%m-%d %H:%M} UTC is already past")
    row = community_of(s, game)
    row.open, row.seats, row.until = True, seats, until
    audit(s, "signup.open", actor=actor, game=game, now=now,
          details={"seats": seats, "until": until.isoformat() if until else None})
    return row


def close_signup(s: Session, game: Game | str, *, actor: str, now: datetime) -> GameCommunity:
    game = locked_game(s, game)
    row = community_of(s, game)
    row.open = False
    audit(s, "signup.close", actor=actor, game=game, now=now)
    return row


def set_setting(s: Session, game: Game | str, name: str, value: Any, *, actor: str, now: datetime) -> Any:
    """Change one community setting of ``game`` (see :data:`SETTINGS`); returns the old value."""
    if name not in SETTINGS or value not in SETTINGS[name]:
        raise InvalidValue(f"{name} takes {', '.join(str(v) for v in SETTINGS.get(name, ()))}, not {value!r}")
    game = locked_game(s, game)
    row = community_of(s, game)
    old = getattr(row, name)
    setattr(row, name, value)
    audit(s, f"community.{name}", actor=actor, game=game, now=now, details={"old": old, "new": value})
    return old


# -- JOIN ------------------------------------------------------------------------------------------------
def pending(s: Session, game: Game) -> list[SignUp]:
    return pending_signups(s, game)


def open_seats(s: Session, game: Game) -> list[Player]:
    """The robots of a running game whose players resigned, with the game's ``on_resign = open``, and who
    were not replaced since."""
    rows = open_departures(s, game)
    by_id = {p.id: p for p in game.players}
    return [by_id[d.player_id] for d in rows
            if d.player_id in by_id and by_id[d.player_id].email == d.address and by_id[d.player_id].status == "active"]


def _taken_names(s: Session, game: Game) -> set[str]:
    return {p.robot_key for p in game.players} | {u.robot.casefold() for u in pending(s, game)}


def join(s: Session, code: str, address: str, robot: str | None, *, now: datetime) -> SignUp:
    """A sign-up of ``address`` for game ``code`` (as ``robot``, or a free name), waiting for the GM."""
    unknown = SignUpRefused(f"no game {code.upper()} is open for sign-up or has an open seat "
                            "(LIST shows those that are)")   # the same whether or not the game exists
    try:
        game = get_game(s, code)
    except NotFound:
        raise unknown from None
    row = settings_view(s, game)
    address = address.lower()
    if any(p.email == address and p.status == "active" for p in game.players):
        raise SignUpRefused(f"you play in {game.code} already")
    if any(u.address == address for u in pending(s, game)):
        raise SignUpRefused(f"your sign-up for {game.code} waits for the game master already")
    seat_of: Player | None = None
    if game.status == "forming":
        if not row.open or (row.until is not None and now > row.until):
            raise unknown   # a game LIST does not show is not told of
        seats = row.seats or seat_limit(game)
        if len(game.players) + len(pending(s, game)) >= seats:
            raise SignUpRefused(f"every seat of {game.code} is taken or asked for ({seats} seats)")
    elif game.status in ("running", "paused"):
        free = [p for p in open_seats(s, game) if not any(u.seat_of == p.id for u in pending(s, game))]
        if not free:
            raise SignUpRefused(f"{game.code} is under way and has no open seat")
        seat_of = next((p for p in free if robot and p.robot_key == robot.casefold()), free[0])
        robot = seat_of.robot
    else:
        raise unknown
    taken = _taken_names(s, game)
    if seat_of is None:
        if robot is None:
            robot = next((n for n in OFFERED_NAMES if n.casefold() not in taken), None)
            if robot is None:
                raise SignUpRefused("no free robot name is left to offer: JOIN with AS <robot name>")
        elif not ROBOT_RE.match(robot) or robot.casefold() in RESERVED_ROBOT_NAMES:
            raise SignUpRefused(f"{robot!r} cannot be a robot name")
        elif robot.casefold() in taken:
            raise SignUpRefused(f"{game.code} has a robot named {robot} already (JOIN without AS: a free name "
                                "is offered)")
    assert robot is not None
    signup = SignUp(game_id=game.id, address=address, robot=robot, seat_of=seat_of.id if seat_of else None,
                    status="pending", created_at=now)
    s.add(signup)
    s.flush()
    audit(s, "signup.join", actor=f"mail:{address}", game=game, now=now, details={"robot": robot})
    return signup


# -- the GM decides --------------------------------------------------------------------------------------
@dataclass
class Decision:
    signup: SignUp
    #: the player seated (ACCEPT)
    player: Player | None = None
    #: the game started with this seat (AUTOSTART)
    started: Turn | None = None


def find_pending(s: Session, game: Game, who: str) -> SignUp:
    """The pending sign-up of ``game`` for robot or address ``who``."""
    key = who.strip().strip("<>").lower()
    for signup in pending(s, game):
        if signup.address == key or signup.robot.casefold() == key:
            return signup
    names = ", ".join(f"{u.robot} ({u.address})" for u in pending(s, game)) or "none"
    raise NotFound(f"no sign-up for {who!r} waits in {game.code} (waiting: {names})")


def decide(s: Session, settings: Settings, game: Game | str, who: str, *, accept: bool, reason: str = "",
           actor: str, now: datetime) -> Decision:
    """ACCEPT (seat the player; start the game when it is full and set to AUTOSTART) or REFUSE."""
    game = locked_game(s, game)
    signup = find_pending(s, game, who)
    step(SEAT, signup_state(signup), "accept" if accept else "refuse", signup.robot)   # by the seat machine
    signup.decided_at = now
    if not accept:
        signup.status, signup.reason = "refused", reason or None
        audit(s, "signup.refuse", actor=actor, game=game, now=now,
              details={"robot": signup.robot, "address": signup.address, "reason": reason})
        return Decision(signup)
    if signup.seat_of is not None:
        seat = s.get(Player, signup.seat_of)
        if seat is None or seat not in open_seats(s, game):
            raise GameStateError(f"the seat of {signup.robot} is no longer open")
        player = replace_player(s, game, seat.robot, signup.address, actor=actor, now=now)
    else:
        player = add_player(s, game, email=signup.address, robot=signup.robot, actor=actor, now=now)
    signup.status = "accepted"
    audit(s, "signup.accept", actor=actor, game=game, now=now,
          details={"robot": player.robot, "address": signup.address})
    decision = Decision(signup, player)
    row = settings_view(s, game)
    if game.status == "forming" and row.autostart and len(game.players) >= (row.seats or seat_limit(game)):
        row = community_of(s, game)
        row.open = False
        decision.started, _ = start_and_announce(s, settings, game, actor=actor, now=now)
    return decision


# -- LIST and WHOIS --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Listed:
    code: str
    course: str
    status: str
    #: ``open for sign-up``, ``running``...
    state: str
    players: int
    seats: int
    #: the sign-up's closing time (forming) or the open turn's deadline (running)
    deadline: datetime | None
    masters: tuple[str, ...]
    open_seats: tuple[str, ...] = ()


def open_games(s: Session, settings: Settings, now: datetime) -> list[Listed]:
    """Games open for sign-up, then running (and paused) ones."""
    out: list[Listed] = []
    games = unfinished_games(s)
    for game in games:
        row = settings_view(s, game)
        if game.status == "forming":
            if not row.open or (row.until is not None and now > row.until):
                continue
            out.append(Listed(game.code, game.course, game.status, "open for sign-up",
                              len(game.players), row.seats or seat_limit(game), row.until,
                              tuple(masters(s, settings, game))))
    for game in games:
        if game.status == "forming":
            continue
        turn = open_turn(s, game)
        playing = [p for p in game.players if p.status == "active"]
        out.append(Listed(game.code, game.course, game.status, game.status, len(playing), len(game.players),
                          turn.deadline if turn else None, tuple(masters(s, settings, game)),
                          tuple(p.robot for p in open_seats(s, game))))
    return out


@dataclass(frozen=True)
class Seat:
    game: str
    robot: str
    status: str
    #: the player's address, where she allows WHOIS to show it
    address: str | None


def shows_address(s: Session, address: str) -> bool:
    prefs = s.get(AddressPrefs, address.lower())
    return bool(prefs and prefs.show_address)


def set_shown(s: Session, address: str, show: bool) -> None:
    prefs = s.get(AddressPrefs, address.lower())
    if prefs is None:
        s.add(AddressPrefs(address=address.lower(), show_address=show))
    else:
        prefs.show_address = show
    s.flush()


def whois(s: Session, *, robot: str | None = None, address: str | None = None) -> list[Seat]:
    """Who plays robot ``robot`` (in every game), or which robots ``address`` plays; games not over."""
    players: list[Player] = []
    if robot is not None:
        players = players_of_robot(s, robot)
    elif address is not None:
        if not shows_address(s, address):
            return []   # nobody learns where an address plays unless its player allowed it
        players = [p for p in players_at(s, address) if p.game.status != "finished"]
    return [Seat(p.game.code, p.robot, p.status, p.email if shows_address(s, p.email) else None)
            for p in sorted(players, key=lambda p: (p.game_id, p.seat))]
