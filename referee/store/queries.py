"""Reading games, players, turns and orders by what they mean: one query each, no changes made.

The use cases (:mod:`referee.games`), the front ends and the reports all look things up here, so
each question ("the open turn", "the orders in force", "who still owes a program") has one answer.
Not found is :class:`~referee.store.errors.NotFound` with a one-line message naming what exists.
"""

from __future__ import annotations

from sqlalchemy import bindparam, func, select
from sqlalchemy.orm import Session

from ..boards import BoardNotFound, load_board
from ..engine import Board, BoardError, Robot, needs_program
from .community import away
from .errors import InvalidValue, NotFound
from .locking import lock_game
from .models import Game, Order, Player, Turn
from .programs import REGISTERS
from .records import robots_of


# -- games ------------------------------------------------------------------------------------------
def get_game(s: Session, code: str | int, *, lock: bool = False) -> Game:
    """The game with this code (any case) or id; :class:`NotFound` if there is none. ``lock``: locked for
    this (write) transaction, see :func:`referee.store.locking.lock_game`."""
    if lock:
        game = lock_game(s, code)
    elif isinstance(code, int):
        game = s.get(Game, code)
    else:
        game = s.scalars(select(Game).where(func.upper(Game.code) == code.strip().upper())).one_or_none()
    if game is None:
        raise NotFound(f"no game {code!r} here (check its code)")
    return game


#: the statuses of a game not finished (whose master may not be removed from under it)
UNFINISHED = ("forming", "running", "paused")

def locked_game(s: Session, game: Game | str) -> Game:
    """``game`` (or the game of that code) locked for this transaction, read again under the lock."""
    key: int | str = game.id if isinstance(game, Game) else game
    return get_game(s, key, lock=True)


def list_games(s: Session, status: str | None = None) -> list[Game]:
    stmt = select(Game).order_by(Game.id)
    if status:
        stmt = stmt.where(Game.status == status)
    return list(s.scalars(stmt))


def unfinished_games(s: Session) -> list[Game]:
    """The games not finished (forming, running, paused), oldest first."""
    return list(s.scalars(select(Game).where(Game.status.in_(UNFINISHED)).order_by(Game.id)))


def players_of_robot(s: Session, robot: str) -> list[Player]:
    """The players of the robot named ``robot`` (any case) in every game not finished."""
    return list(s.scalars(select(Player).join(Game).where(Game.status != "finished",
                                                          Player.robot_key == robot.casefold())))


def holds_a_seat(s: Session, address: str) -> bool:
    """Whether ``address`` (lower case) holds a seat, not ejected, in a game not finished."""
    return s.scalars(select(Player.id).join(Game).where(Player.email == address, Player.status != "ejected",
                                                        Game.status != "finished")).first() is not None


def game_codes(s: Session, prefix: str) -> list[str]:
    """The codes of every game whose code starts with ``prefix``."""
    return list(s.scalars(select(Game.code).where(Game.code.like(f"{prefix}%"))))


def code_taken(s: Session, code: str) -> bool:
    return s.scalars(select(Game.id).where(func.upper(Game.code) == code.upper())).first() is not None


def load_course(name: str) -> Board:
    """The board of a game's course; :class:`InvalidValue` when there is none or it cannot be used."""
    try:
        return load_board(name)
    except BoardNotFound as exc:
        raise InvalidValue(str(exc)) from None
    except BoardError as exc:
        raise InvalidValue(f"course {name!r} cannot be used: {exc}") from None


# -- players ------------------------------------------------------------------------------------------
def get_player(s: Session, game: Game, robot: str) -> Player:
    """The player of ``robot`` (any case) in ``game``."""
    player = s.scalars(select(Player).where(Player.game_id == game.id,
                                            Player.robot_key == robot.strip().casefold())).one_or_none()
    if player is None:
        names = ", ".join(p.robot for p in game.players) or "none yet"
        raise NotFound(f"no robot {robot!r} in {game.code} (robots: {names})")
    return player


def players_at(s: Session, address: str, *, game: Game | None = None, playing: bool = False) -> list[Player]:
    """The one query of who plays at an address: every robot whose player's address of record is ``address``
    (any case), oldest first; only in ``game`` when given; ``playing``: only active seats of games not over."""
    query = select(Player).where(Player.email == address.lower()).order_by(Player.id)
    if game is not None:
        query = query.where(Player.game_id == game.id)
    if playing:
        query = query.join(Game).where(Game.status != "finished", Player.status == "active")
    return list(s.scalars(query))


def player_at(s: Session, game: Game, address: str) -> Player | None:
    """The player of ``game`` whose address of record is ``address`` (one at most: an address plays one robot
    a game)."""
    found = players_at(s, address, game=game)
    return found[0] if found else None


# -- turns --------------------------------------------------------------------------------------------
def get_turn(s: Session, game: Game, number: int | None = None) -> Turn:
    """Turn ``number`` of ``game`` (default: the current one)."""
    number = game.turn_number if number is None else number
    turn = s.scalars(select(Turn).where(Turn.game_id == game.id, Turn.number == number)).one_or_none()
    if turn is None:
        if game.turn_number == 0:
            raise NotFound(f"{game.code} has not started (no turns yet)")
        raise NotFound(f"{game.code} has no turn {number} (turns 1-{game.turn_number})")
    return turn


def open_turn(s: Session, game: Game) -> Turn | None:
    """The turn waiting for orders, if any."""
    return s.scalars(_OPEN_TURN, {"game": game.id}).one_or_none()


#: the statements asked on every due turn, built once (building one costs about as much as running it)
_OPEN_TURN = select(Turn).where(Turn.game_id == bindparam("game"), Turn.status == "open")
_ACTIVE_ORDERS = select(Order).where(Order.turn_id == bindparam("turn"), Order.active.is_(True)).order_by(Order.id)


def last_resolved(s: Session, game: Game) -> Turn | None:
    return s.scalars(select(Turn).where(Turn.game_id == game.id, Turn.status == "resolved")
                     .order_by(Turn.number.desc()).limit(1)).one_or_none()


def turns_after(s: Session, game: Game, number: int) -> list[Turn]:
    """The turns of ``game`` after turn ``number``."""
    return list(s.scalars(select(Turn).where(Turn.game_id == game.id, Turn.number > number)))


def resolved_already(s: Session, game: Game, number: int) -> bool:
    """Whether turn ``number`` has been played: the game moved past it, or (its last turn) it was
    resolved and ended the game."""
    if game.turn_number != number:
        return game.turn_number > number
    return s.scalar(select(Turn.status).where(Turn.game_id == game.id, Turn.number == number)) == "resolved"


# -- orders -------------------------------------------------------------------------------------------
def active_orders(s: Session, turn: Turn) -> dict[int, Order]:
    """player id -> the orders in force for this turn."""
    rows = s.scalars(_ACTIVE_ORDERS, {"turn": turn.id})
    return {o.player_id: o for o in rows}


def owes_program(turn: Turn, robot: Robot) -> bool:
    """Whether this robot's player must send a program: on the board, not powered down, and not
    every register fused (then the program is the fused cards)."""
    return needs_program(robot) and len(turn.locked.get(robot.name) or {}) < REGISTERS


def waiting_for(s: Session, game: Game, turn: Turn | None = None,
                orders: dict[int, Order] | None = None, gone: set[int] | None = None) -> list[Player]:
    """The players of the open turn who still owe a program (empty when the turn can be resolved).
    ``turn``, ``orders``, ``gone``: the open turn, its :func:`active_orders` and the game's
    :func:`~referee.store.community.away` players at its deadline, where the caller has them."""
    turn = turn if turn is not None else open_turn(s, game)
    if turn is None:
        return []
    orders = orders if orders is not None else active_orders(s, turn)
    by_robot = {p.robot: p for p in game.players}
    if gone is None:   # resigned, or absent while the game lets the policy play (issue 31)
        gone = away(s, game, turn.deadline)
    out = []
    for robot in robots_of(turn):
        player = by_robot.get(robot.name)
        if player is None or player.status != "active" or player.id in gone:
            continue
        order = orders.get(player.id)
        if owes_program(turn, robot) and (order is None or not order.program):
            out.append(player)
    return out
