"""Seating players: add (while forming), standing orders, hand a robot to someone else, eject."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from ..common.textsafe import clean_name
from ..engine import Rules
from ..store.errors import Duplicate, GameStateError, InvalidValue
from ..store.models import Game, Player
from ..store.queries import active_orders, get_player, load_course, locked_game, open_turn, player_at
from ..store.types import utcnow
from .common import (
    COLOUR_RE,
    MAX_PLAYERS,
    PALETTE,
    RESERVED_ROBOT_NAMES,
    ROBOT_RE,
    audit,
    course_players,
    new_secret,
    normalize_email,
)
from .states import leave_seat, seat_state


def find_player_by_email(s: Session, game: Game, address: str) -> Player | None:
    """The player of ``game`` at ``address`` (any spelling of it), or None."""
    return player_at(s, game, normalize_email(address))


def add_player(s: Session, game: Game | str, *, email: str, robot: str, colour: str | None = None,
               name: str = "", secret: str | None = None, actor: str = "system",
               now: datetime | None = None) -> Player:
    """Seat a player in a forming game. Robot names, addresses and colours are unique per game."""
    now = now or utcnow()
    game = locked_game(s, game)
    if game.status != "forming":
        raise GameStateError(f"{game.code} is {game.status}: players join only while it is forming")
    robot = robot.strip()
    if not ROBOT_RE.match(robot) or robot.casefold() in RESERVED_ROBOT_NAMES:
        raise InvalidValue(f"bad robot name {robot!r} (a letter, then letters, digits, '-' or '_', up to 20; "
                           f"not one of {', '.join(sorted(RESERVED_ROBOT_NAMES))})")
    addr = sendable(normalize_email(email), email)
    players = list(game.players)
    for p in players:
        if p.robot_key == robot.casefold():
            raise Duplicate(f"{game.code} already has a robot named {p.robot} (player {p.email})")
        if p.email == addr:
            raise Duplicate(f"{addr} already plays {p.robot} in {game.code}")
    board = load_course(game.course)
    most = min(MAX_PLAYERS, course_players(board)[1])
    if len(players) >= most:
        raise GameStateError(f"{game.code} is full ({most} players on {game.course})")
    if Rules.from_dict(game.rules).start == "numbered" and len(players) >= len(board.starts):
        raise GameStateError(f"{game.code}: course {game.course} has only {len(board.starts)} start squares")
    taken = {p.colour for p in players}
    if colour is None:
        colour = next(c for c in PALETTE if c not in taken)
    colour = colour.strip().lower()
    if not COLOUR_RE.match(colour):
        raise InvalidValue(f"bad colour {colour!r} (a name such as red, or #rrggbb)")
    if colour in taken:
        raise Duplicate(f"colour {colour} is taken in {game.code}")
    player = Player(game=game, seat=max((p.seat for p in players), default=0) + 1, robot=robot,
                    robot_key=robot.casefold(), email=addr, name=clean_name(name), colour=colour,
                    secret=secret or new_secret(), status="active", missed_turns=0, standing_orders={},
                    joined_at=now)
    s.add(player)
    s.flush()
    audit(s, "player.add", actor=actor, game=game, now=now,
          details={"robot": robot, "email": addr, "colour": colour, "seat": player.seat})
    return player


def set_standing_orders(s: Session, game: Game | str, robot: str, orders: dict[str, Any]) -> Player:
    """Change a player's standing orders (they hold until changed; ``None`` as a value removes one)."""
    game = locked_game(s, game)
    player = get_player(s, game, robot)
    merged = {**player.standing_orders, **orders}
    player.standing_orders = {k: v for k, v in merged.items() if v is not None}
    return player


def sendable(addr: str, given: str) -> str:
    """``addr`` when the referee can mail it; an address with letters outside ASCII would need SMTPUTF8,
    which the referee's mail client does not speak, so it is refused with the reason."""
    if not addr.isascii():
        raise InvalidValue(f"{given.strip()} has letters outside ASCII: the referee cannot send mail to such an "
                           "address (its mail client does not use SMTPUTF8); give an address in plain ASCII letters")
    return addr


def replace_player(s: Session, game: Game | str, robot: str, email: str, *, name: str = "",
                   actor: str = "system", now: datetime | None = None) -> Player:
    """Hand a robot to a new player (a GM ``REPLACE``): new address of record and a new secret."""
    now = now or utcnow()
    game = locked_game(s, game)
    player = get_player(s, game, robot)
    addr = sendable(normalize_email(email), email)
    other = find_player_by_email(s, game, addr)
    if other is not None and other.id != player.id:
        raise Duplicate(f"{addr} already plays {other.robot} in {game.code}")
    old = {"email": player.email, "name": player.name}
    if seat_state(s, player, now=now) != "resigned":   # a player who resigned is remembered as such already
        leave_seat(s, player, "replaced", now=now)
    player.email, player.name, player.secret = addr, clean_name(name), new_secret()
    player.missed_turns = 0
    audit(s, "player.replace", actor=actor, game=game, turn_number=game.turn_number or None, now=now,
          details={"robot": player.robot, "old": old, "new": {"email": addr, "name": player.name}})
    return player


def eject_player(s: Session, game: Game | str, robot: str, *, actor: str = "system", reason: str = "",
                 now: datetime | None = None) -> Player:
    """Take a player out of the game (a GM ``EJECT``): the robot runs no program from now on (it stands
    idle through the open turn) and is gone from the board when the next turn is dealt."""
    now = now or utcnow()
    game = locked_game(s, game)
    player = get_player(s, game, robot)
    if seat_state(s, player, now=now) != "resigned":   # her seat ends as she left it; the robot still goes
        leave_seat(s, player, "ejected", now=now)        # refused for a robot ejected already
    player.status, player.left_at = "ejected", now
    player.secret = new_secret()   # her key and reply addresses no longer name the robot
    turn = open_turn(s, game)
    if turn is not None:
        order = active_orders(s, turn).get(player.id)
        if order is not None:
            order.active, order.superseded_at = False, now
    audit(s, "player.eject", actor=actor, game=game, turn_number=game.turn_number or None, now=now,
          details={"robot": player.robot, "email": player.email, "reason": reason})
    return player


