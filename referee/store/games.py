"""Games, players, turns and orders: the service functions of the game store.

Every function takes a SQLAlchemy ``Session`` (from :meth:`Store.write` or :meth:`Store.read`) so a
caller can do several things in one transaction: the mail poller stores a mail, records the orders
it carried and queues the echo together; the tick resolves a turn and queues its reports together.
Functions that change a game lock it first (:func:`referee.store.locking.lock_game`) and re-check
its state after the lock is granted. ``now`` is always a parameter (aware UTC; default the wall
clock) so tests and the tick can move time; ``actor`` names who did it, for the audit log.

A game's life: :func:`create_game` (forming) -> :func:`add_player` ... -> :func:`start_game`
(running; robots placed, turn 1 dealt) -> per turn :func:`submit_program` for each robot, then
:func:`resolve_turn` (the turn's inputs and results stored, the next turn dealt) -> finished when
a robot wins or nobody is left. :func:`replay_turn` re-runs a stored turn from its snapshot;
:func:`rerun_turn` re-resolves the last turn with corrections; :func:`rollback_to` reopens an
earlier turn.

Turn seeds are ``f"{game.seed}:{turn number}"``; the engine is pure, so a turn's stored
snapshot, inputs and seed always give the same result.
"""

from __future__ import annotations

import random
import re
import secrets
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from .. import __version__
from ..boards import BoardNotFound, load_board
from ..deadlines import BadClock, deadline_after, parse_clock
from ..engine import (
    RULES_VERSION,
    Board,
    BoardError,
    BoardState,
    Card,
    Robot,
    Rules,
    TurnResult,
    deal_turn,
    needs_program,
    parse_card,
)
from ..engine import resolve_turn as engine_resolve
from ..engine.dealing import flywheel_card
from ..engine.decisions import Answers, DecisionKey
from ..engine.element_orders import BY_SUBJECT as ELEMENT_ORDERS
from ..engine.event_codec import contract_events, encode_events, same_events
from ..engine.geometry import N, NotationError, dir_name, parse_dir
from ..engine.option_deck import held_options, new_option_deck
from ..engine.option_orders import BY_SUBJECT, RECOMPILE, order_key
from ..engine.snapshot import robot_from_dict, robot_to_dict
from ..intake.senders import address_list, sender_address
from ..textsafe import clean_name
from .errors import (
    AlreadyResolved,
    Busy,
    Duplicate,
    GameStateError,
    InvalidValue,
    MissingOrders,
    NotFound,
    ProgramError,
    StaleOrders,
)
from .locking import lock_game, lock_named, require_write
from .models import (
    DEFAULT_SETTLE_SECONDS,
    MISSING_ORDERS_POLICIES,
    ORDER_SOURCES,
    AuditEntry,
    Game,
    Order,
    Player,
    Turn,
)
from .programs import REGISTERS, check_program, random_program
from .types import utcnow

#: colours handed out in seat order when a player names none
#: the board pictures' palette (chosen to stand out on the floor), in the order seats get them
PALETTE = ("red", "blue", "green", "orange", "purple", "cyan", "pink", "brown")
MAX_PLAYERS = 8
CODE_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9-]{0,31}$")
ROBOT_RE = re.compile(r"^[A-Za-z][A-Za-z0-9_-]{0,19}$")
COLOUR_RE = re.compile(r"^(#[0-9a-fA-F]{6}|[a-z]{3,16})$")
EMAIL_RE = re.compile(r"^[^@\s<>(),;:\"\[\]]+@[^@\s<>(),;:\"\[\]]+\.[^@\s<>(),;:\"\[\]]+$")
#: secrets are typed by players into a BEGIN line: lower case, no look-alike characters; 16 of the 31
#: give 79 bits (the 8 of the first games gave 40, and those keys keep working)
SECRET_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
SECRET_LENGTH = 16
#: words the order language (issue 4) reads after ``BEGIN <game>``: not allowed as robot names
RESERVED_ROBOT_NAMES = frozenset({"turn", "gm", "all", "end", "begin", "help", "status", "cards"})

#: ``fill(player, robot, hand, locked, seed) -> five registers`` for a robot with no program
Fill = Callable[[Player, Robot, list[Card], dict[int, Card], str], list[Card | None]]


# -- small helpers ---------------------------------------------------------------------------------
def audit(s: Session, action: str, *, actor: str, game: Game | None = None, turn_number: int | None = None,
          details: dict[str, Any] | None = None, now: datetime | None = None) -> AuditEntry:
    """Write one audit log line (``action`` dotted, e.g. ``turn.rerun``; old values in ``details``)."""
    entry = AuditEntry(at=now or utcnow(), actor=actor, action=action, game_id=game.id if game else None,
                       turn_number=turn_number, details=details or {})
    s.add(entry)
    return entry


def new_secret() -> str:
    return "".join(secrets.choice(SECRET_ALPHABET) for _ in range(SECRET_LENGTH))


def turn_seed(game: Game, number: int) -> str:
    return f"{game.seed}:{number}"


def normalize_email(address: str) -> str:
    """``Alice <Alice@Example.org>`` -> ``alice@example.org``; :class:`InvalidValue` if it is not exactly one
    plain address (a list, a header fragment, a line break or control character is refused, never cut)."""
    text = address.strip()
    if any(unicodedata.category(c) == "Cc" for c in text) or "\\" in text:
        raise InvalidValue(f"bad e-mail address {text!r}: it holds a line break or a control character; "
                           "give one plain address")
    found = address_list(text)
    if len(found) > 1 or ";" in text or (":" in text and "<" not in text):
        raise InvalidValue(f"bad e-mail address {text!r}: give one address, not a list or header lines")
    addr = sender_address(text)
    if not addr or not EMAIL_RE.match(addr) or len(addr) > 320:
        raise InvalidValue(f"bad e-mail address {text!r}")
    return addr


def load_course(name: str) -> Board:
    try:
        return load_board(name)
    except BoardNotFound as exc:
        raise InvalidValue(str(exc)) from None
    except BoardError as exc:
        raise InvalidValue(f"course {name!r} cannot be used: {exc}") from None


def course_players(board: Board) -> tuple[int, int]:
    """(fewest, most) players the course is made for (its ``players``; any number up to 8 if unsaid)."""
    spec = board.spec.get("players")
    if isinstance(spec, list) and len(spec) == 2 and all(isinstance(n, int) for n in spec):
        return spec[0], spec[1]
    return 1, MAX_PLAYERS


def cards_text(cards: Sequence[Card | None]) -> list[str | None]:
    return [str(c) if c is not None else None for c in cards]


def cards_of(items: Sequence[str | None]) -> list[Card | None]:
    return [parse_card(c) if c is not None else None for c in items]


def _locked_of(turn: Turn, robot: str) -> dict[int, Card]:
    return {int(reg): parse_card(card) for reg, card in (turn.locked.get(robot) or {}).items()}


def _hand_of(turn: Turn, robot: str) -> list[Card]:
    return [parse_card(c) for c in turn.hands.get(robot, [])]


# -- games -----------------------------------------------------------------------------------------
def get_game(s: Session, code: str | int, *, lock: bool = False) -> Game:
    """The game with this code (any case) or id; :class:`NotFound` if there is none."""
    if lock:
        game = lock_game(s, code)
    elif isinstance(code, int):
        game = s.get(Game, code)
    else:
        game = s.scalars(select(Game).where(func.upper(Game.code) == code.strip().upper())).one_or_none()
    if game is None:
        raise NotFound(f"no game {code!r} (see 'referee game list')")
    return game


def list_games(s: Session, status: str | None = None) -> list[Game]:
    stmt = select(Game).order_by(Game.id)
    if status:
        stmt = stmt.where(Game.status == status)
    return list(s.scalars(stmt))


def _next_code(s: Session, prefix: str = "RR-") -> str:
    taken = s.scalars(select(Game.code).where(Game.code.like(f"{prefix}%"))).all()
    numbers = [int(c[len(prefix):]) for c in taken if c[len(prefix):].isdigit()]
    return f"{prefix}{max(numbers, default=0) + 1}"


def create_game(s: Session, *, course: str, code: str | None = None, title: str = "",
                rules: dict[str, Any] | Rules | None = None, seed: str | None = None,
                deadline_seconds: int | None = None, reminder_seconds: int | None = None,
                settle_seconds: int | None = None, missing_orders: str = "autopilot",
                max_missed_turns: int | None = None, deadline_time: str | None = None,
                hold_for_review: bool = False, gm_address: str | None = None,
                actor: str = "system", now: datetime | None = None) -> Game:
    """A new game, forming. ``code`` defaults to the next free ``RR-<n>``; ``seed`` to a random one."""
    now = now or utcnow()
    board = load_course(course)
    if not board.starts:
        raise InvalidValue(f"course {course!r} has no start squares")
    try:
        house = rules if isinstance(rules, Rules) else Rules.from_dict(dict(rules or {}))
        house.validate()
    except (TypeError, ValueError) as exc:
        raise InvalidValue(str(exc)) from None
    if missing_orders not in MISSING_ORDERS_POLICIES:
        raise InvalidValue(f"missing-orders policy must be one of {', '.join(MISSING_ORDERS_POLICIES)}, "
                           f"not {missing_orders!r}")
    for label, value in (("deadline", deadline_seconds), ("reminder", reminder_seconds),
                         ("settle delay", settle_seconds), ("missed turns", max_missed_turns)):
        if value is not None and (not isinstance(value, int) or value < 0):
            raise InvalidValue(f"{label} must be a whole number of seconds >= 0, not {value!r}")
    if deadline_time is not None:
        try:
            deadline_time = parse_clock(deadline_time)
        except BadClock as exc:
            raise InvalidValue(str(exc)) from None
    require_write(s)
    lock_named(s, "games")
    if code is None:
        code = _next_code(s)
    code = code.strip().upper()
    if not CODE_RE.match(code):
        raise InvalidValue(f"bad game code {code!r} (letters, digits and '-', up to 32, e.g. RR-7)")
    if s.scalars(select(Game.id).where(func.upper(Game.code) == code)).first() is not None:
        raise Duplicate(f"a game {code} exists already")
    game = Game(code=code, title=clean_name(title), course=course, rules=house.to_dict(),
                seed=seed if seed is not None else secrets.token_hex(8), status="forming", turn_number=0,
                settle_seconds=DEFAULT_SETTLE_SECONDS if settle_seconds is None else settle_seconds,
                deadline_time=deadline_time, missing_orders=missing_orders, hold_for_review=hold_for_review,
                gm_address=normalize_email(gm_address) if gm_address else None, created_at=now)
    if deadline_seconds is not None:
        game.deadline_seconds = deadline_seconds
    if reminder_seconds is not None:
        game.reminder_seconds = reminder_seconds
    if max_missed_turns is not None:
        game.max_missed_turns = max_missed_turns
    if len(game.seed) > 64:
        raise InvalidValue("a game seed has at most 64 characters")
    s.add(game)
    s.flush()
    audit(s, "game.new", actor=actor, game=game, now=now,
          details={"course": course, "rules": game.rules, "title": title})
    return game


# -- players ---------------------------------------------------------------------------------------
def get_player(s: Session, game: Game, robot: str) -> Player:
    """The player of ``robot`` (any case) in ``game``."""
    player = s.scalars(select(Player).where(Player.game_id == game.id,
                                            Player.robot_key == robot.strip().casefold())).one_or_none()
    if player is None:
        names = ", ".join(p.robot for p in game.players) or "none yet"
        raise NotFound(f"no robot {robot!r} in {game.code} (robots: {names})")
    return player


def find_player_by_email(s: Session, game: Game, address: str) -> Player | None:
    addr = normalize_email(address)
    return s.scalars(select(Player).where(Player.game_id == game.id, Player.email == addr)).one_or_none()


def add_player(s: Session, game: Game | str, *, email: str, robot: str, colour: str | None = None,
               name: str = "", secret: str | None = None, actor: str = "system",
               now: datetime | None = None) -> Player:
    """Seat a player in a forming game. Robot names, addresses and colours are unique per game."""
    now = now or utcnow()
    game = _locked(s, game)
    if game.status != "forming":
        raise GameStateError(f"{game.code} is {game.status}: players join only while it is forming")
    robot = robot.strip()
    if not ROBOT_RE.match(robot) or robot.casefold() in RESERVED_ROBOT_NAMES:
        raise InvalidValue(f"bad robot name {robot!r} (a letter, then letters, digits, '-' or '_', up to 20; "
                           f"not one of {', '.join(sorted(RESERVED_ROBOT_NAMES))})")
    addr = normalize_email(email)
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
    game = _locked(s, game)
    player = get_player(s, game, robot)
    merged = {**player.standing_orders, **orders}
    player.standing_orders = {k: v for k, v in merged.items() if v is not None}
    return player


def replace_player(s: Session, game: Game | str, robot: str, email: str, *, name: str = "",
                   actor: str = "system", now: datetime | None = None) -> Player:
    """Hand a robot to a new player (a GM ``REPLACE``): new address of record and a new secret."""
    now = now or utcnow()
    game = _locked(s, game)
    player = get_player(s, game, robot)
    addr = normalize_email(email)
    other = find_player_by_email(s, game, addr)
    if other is not None and other.id != player.id:
        raise Duplicate(f"{addr} already plays {other.robot} in {game.code}")
    old = {"email": player.email, "name": player.name}
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
    game = _locked(s, game)
    player = get_player(s, game, robot)
    if player.status == "ejected":
        raise GameStateError(f"{player.robot} was ejected already")
    player.status, player.left_at = "ejected", now
    turn = open_turn(s, game)
    if turn is not None:
        order = active_orders(s, turn).get(player.id)
        if order is not None:
            order.active, order.superseded_at = False, now
    audit(s, "player.eject", actor=actor, game=game, turn_number=game.turn_number or None, now=now,
          details={"robot": player.robot, "email": player.email, "reason": reason})
    return player


def _locked(s: Session, game: Game | str) -> Game:
    key: int | str = game.id if isinstance(game, Game) else game
    return get_game(s, key, lock=True)


# -- turns -----------------------------------------------------------------------------------------
def start_game(s: Session, game: Game | str, *, actor: str = "system", now: datetime | None = None) -> Turn:
    """Place the robots by the house rule ``start`` and deal turn 1.

    ``virtual``: every robot on start square 1, virtual for its first turn. ``numbered``: the
    robot of seat n, real, on start square n. All face north, with their archive on the square
    they start on, and the house rule's number of lives.
    """
    now = now or utcnow()
    game = _locked(s, game)
    if game.status != "forming":
        raise GameStateError(f"{game.code} is already {game.status}" if game.status != "finished"
                             else f"{game.code} is finished")
    players = [p for p in game.players if p.status == "active"]
    if not players:
        raise GameStateError(f"{game.code} has no players yet (referee game add-player)")
    board = load_course(game.course)
    fewest = course_players(board)[0]
    if len(players) < fewest:
        raise GameStateError(f"{game.code} needs at least {fewest} players on {game.course}, it has {len(players)}")
    rules = Rules.from_dict(game.rules)
    robots: list[Robot] = []
    first = board.starts[min(board.starts)]
    for p in players:
        if rules.start == "numbered":
            if p.seat not in board.starts:
                raise GameStateError(f"course {game.course} has no start square {p.seat} for {p.robot}")
            at = board.starts[p.seat]
            robots.append(Robot(p.robot, at, N, lives=rules.lives, archive=at))
        else:
            robots.append(Robot(p.robot, first, N, lives=rules.lives, virtual=True, first_turn=True, archive=first))
    game.status = "running"
    game.started_at = now
    turn = _open_turn(s, game, 1, robots, now)
    audit(s, "game.start", actor=actor, game=game, turn_number=1, now=now,
          details={"start": rules.start, "robots": [robot_to_dict(r) for r in robots]})
    return turn


def _open_turn(s: Session, game: Game, number: int, robots: list[Robot], now: datetime,
               board_state: BoardState | None = None, option_deck: list[str] | None = None) -> Turn:
    """Deal turn ``number`` from ``robots``; ``board_state``: what the board's elements remember;
    ``option_deck``: the game's option deck as the last turn left it (the first turn shuffles the game's
    deck from its seed)."""
    seed = turn_seed(game, number)
    dealt = deal_turn(robots, seed)
    if option_deck is None:
        option_deck = new_option_deck(game.seed, Rules.from_dict(game.rules), held_options(robots))
    turn = Turn(game=game, number=number, status="open", seed=seed, rules=dict(game.rules),
                engine_version=__version__, opened_at=now,
                deadline=deadline_after(now, game.deadline_seconds, game.deadline_time),
                state_before=[robot_to_dict(r) for r in robots],
                hands={name: cards_text(hand) for name, hand in dealt.hands.items()},
                locked={name: {str(reg): str(card) for reg, card in sorted(regs.items())}
                        for name, regs in dealt.locked.items() if regs},
                undealt=cards_text(dealt.undealt), option_deck=list(option_deck),
                board_before=board_state.to_dict() if board_state else None)
    s.add(turn)
    game.turn_number = number
    s.flush()
    return turn


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
    return s.scalars(select(Turn).where(Turn.game_id == game.id, Turn.status == "open")).one_or_none()


def robots_of(turn: Turn) -> list[Robot]:
    """The robots at the start of ``turn`` (engine objects)."""
    return [robot_from_dict(d) for d in turn.state_before]


def active_orders(s: Session, turn: Turn) -> dict[int, Order]:
    """player id -> the orders in force for this turn."""
    rows = s.scalars(select(Order).where(Order.turn_id == turn.id, Order.active.is_(True)).order_by(Order.id))
    return {o.player_id: o for o in rows}


def owes_program(turn: Turn, robot: Robot) -> bool:
    """Whether this robot's player must send a program: on the board, not powered down, and not
    every register fused (then the program is the fused cards)."""
    return needs_program(robot) and len(turn.locked.get(robot.name) or {}) < REGISTERS


def waiting_for(s: Session, game: Game) -> list[Player]:
    """The players of the open turn who still owe a program (empty when the turn can be resolved)."""
    turn = open_turn(s, game)
    if turn is None:
        return []
    orders = active_orders(s, turn)
    by_robot = {p.robot: p for p in game.players}
    out = []
    for robot in robots_of(turn):
        player = by_robot.get(robot.name)
        if player is None or player.status != "active":
            continue
        order = orders.get(player.id)
        if owes_program(turn, robot) and (order is None or not order.program):
            out.append(player)
    return out


def submit_program(s: Session, game: Game | str, robot: str, cards: Sequence[Card | str | None], *,
                   turn_number: int | None = None, source: str = "cli", power_down: bool | None = None,
                   reentry_facing: str | None = None, extra: dict[str, Any] | None = None,
                   text: str | None = None, incoming_mail_id: int | None = None, actor: str | None = None,
                   now: datetime | None = None) -> Order:
    """Accept a program (and the turn's other orders) for ``robot``; the last accepted one counts.

    ``cards``: five registers, or only the unlocked ones (see :func:`check_program`); empty for a
    robot that runs no program this turn (powered down, or off the board), which may still
    announce a power down or choose its re-entry facing. ``turn_number``, when given, must be the
    open turn (:class:`StaleOrders` otherwise). Raises :class:`ProgramError` with every problem.
    """
    now = now or utcnow()
    if source not in ORDER_SOURCES:
        raise InvalidValue(f"order source must be one of {', '.join(ORDER_SOURCES)}, not {source!r}")
    game = _locked(s, game)
    if game.status not in ("running", "paused"):
        if turn_number is not None:  # a race with the resolution of the game's last turn
            raise StaleOrders(f"orders for turn {turn_number} of {game.code} are stale: "
                              f"{game.code} is {game.status}")
        raise StaleOrders(f"{game.code} is {game.status}: no orders are taken")
    turn = open_turn(s, game)
    if turn is None:
        raise StaleOrders(f"{game.code} has no open turn")
    if turn_number is not None and turn_number != turn.number:
        raise StaleOrders(f"orders for turn {turn_number} of {game.code} are stale: turn {turn.number} is open")
    player = get_player(s, game, robot)
    if player.status != "active":
        raise ProgramError(f"{player.robot} is {'out of the game' if player.status == 'out' else 'ejected'}")
    state = {r.name: r for r in robots_of(turn)}.get(player.robot)
    if state is None:
        raise ProgramError(f"{player.robot} is not in turn {turn.number}")
    facing = None
    if reentry_facing is not None:
        try:
            facing = dir_name(parse_dir(reentry_facing))
        except NotationError as exc:
            raise ProgramError(f"re-entry facing: {exc}") from None
    previous = active_orders(s, turn).get(player.id)
    program: list[Card | None]
    if not cards and previous is not None and previous.program:
        program = cards_of(previous.program)  # only the other orders change (e.g. a power down announced)
    elif owes_program(turn, state) or (needs_program(state) and cards):
        program = list(check_program(player.robot, _hand_of(turn, player.robot), _locked_of(turn, player.robot),
                                     cards))
    elif cards:
        why = "is powered down this turn" if state.pos is not None else "is off the board this turn"
        raise ProgramError(f"{player.robot} {why}: it runs no program")
    else:
        program = []
    if previous is not None:
        previous.active = False
        previous.superseded_at = now
        if power_down is None:
            power_down = previous.power_down
        if facing is None:
            facing = previous.reentry_facing
    order = Order(turn=turn, player_id=player.id, active=True, source=source, program=cards_text(program),
                  power_down=power_down, reentry_facing=facing, extra=extra, text=text,
                  incoming_mail_id=incoming_mail_id, actor=actor, submitted_at=now)
    s.add(order)
    s.flush()
    return order


def random_fill(player: Player, robot: Robot, hand: list[Card], locked: dict[int, Card],
                seed: str) -> list[Card | None]:
    """Missing-orders policy ``random``: a program drawn at random from the hand (fused registers kept)."""
    return list(random_program(hand, locked, f"{seed}:{robot.name}"))


def idle_fill(player: Player, robot: Robot, hand: list[Card], locked: dict[int, Card],
              seed: str) -> list[Card | None]:
    """A robot with no orders runs only its fused registers."""
    return [locked.get(reg) for reg in range(1, REGISTERS + 1)]


FILLS: dict[str, Fill] = {"random": random_fill, "idle": idle_fill}


@dataclass
class TurnInputs:
    """What goes into the engine besides the turn's snapshot, seed and rules."""

    programs: dict[str, list[Card | None]]
    power_down: list[str]
    reentry: dict[str, str]
    standing: dict[str, Any]
    #: robot -> option orders for this turn only (``{subject: answer or {"<register>": answer}}``)
    option_orders: dict[str, Any] = field(default_factory=dict)

    def to_columns(self) -> dict[str, Any]:
        return {"programs": {k: cards_text(v) for k, v in self.programs.items()},
                "power_down": list(self.power_down), "reentry": dict(self.reentry), "standing": dict(self.standing),
                "option_orders": {k: dict(v) for k, v in self.option_orders.items() if v} or None}

    def answers(self) -> Answers:
        """The players' answers to the engine's decisions: this turn's option orders, then standing orders."""
        return Answers(orders={robot: option_answers(said) for robot, said in self.option_orders.items()},
                       standing=self.standing)


def option_answers(said: Mapping[str, Any]) -> dict[DecisionKey, Any]:
    """Stored option orders (``{subject: answer or {"<register>": answer}}``) by the engine's decision keys."""
    out: dict[DecisionKey, Any] = {}
    for subject, value in said.items():
        if subject not in BY_SUBJECT and subject not in ELEMENT_ORDERS:
            continue
        if isinstance(value, Mapping) and value and all(str(k) in ("1", "2", "3", "4", "5") for k in value):
            out.update({order_key(subject, int(reg)): answer for reg, answer in value.items()})
        else:
            out[order_key(subject)] = value
    return out


def stored_inputs(turn: Turn) -> TurnInputs:
    if turn.programs is None:
        raise GameStateError(f"turn {turn.number} has not been resolved")
    return TurnInputs(programs={k: cards_of(v) for k, v in turn.programs.items()},
                      power_down=list(turn.power_down or []), reentry=dict(turn.reentry or {}),
                      standing=dict(turn.standing or {}), option_orders=dict(turn.option_orders or {}))


def run_engine(turn: Turn, course: str, inputs: TurnInputs) -> TurnResult:
    """Resolve ``turn`` from its stored snapshot with ``inputs``. Pure: nothing is written."""
    board = load_course(course)
    robots = robots_of(turn)
    for r in robots:
        if r.name in inputs.power_down:
            r.power_down_next = True
    reentry = {name: parse_dir(d) for name, d in inputs.reentry.items()}
    return engine_resolve(board, robots, inputs.programs, rules=Rules.from_dict(turn.rules), seed=turn.seed,
                          undealt=[parse_card(c) for c in turn.undealt], reentry=reentry,
                          answers=inputs.answers(),
                          board_state=BoardState.from_dict(turn.board_before),
                          option_deck=list(turn.option_deck) if turn.option_deck is not None else None)


def result_columns(result: TurnResult) -> dict[str, Any]:
    """A resolved turn's outcome as stored in the turn's columns."""
    return {
        "played": {name: cards_text(cards) for name, cards in result.played.items()},
        "events": encode_events(result.events),
        "state_after": [robot_to_dict(r) for r in result.robots],
        "board_after": result.board_state.to_dict() if result.board_state else None,
        "frames": [[robot_to_dict(r) for r in frame] for frame in result.frames],
        "winner": result.winner,
        "phases_run": result.phases_run,
        "end_of_turn": result.end_of_turn,
    }


def stored_result(turn: Turn) -> dict[str, Any]:
    """The outcome stored for a resolved turn, comparable with :func:`result_columns`."""
    return {key: getattr(turn, key) for key in ("played", "events", "state_after", "board_after", "frames", "winner",
                                                "phases_run", "end_of_turn")}


def _gather_inputs(s: Session, game: Game, turn: Turn, fill: Fill | None, actor: str,
                   now: datetime) -> TurnInputs:
    orders = active_orders(s, turn)
    by_robot = {p.robot: p for p in game.players}
    programs: dict[str, list[Card | None]] = {}
    power_down: list[str] = []
    reentry: dict[str, str] = {}
    standing: dict[str, Any] = {}
    option_orders: dict[str, Any] = {}
    missing: list[str] = []
    for robot in robots_of(turn):
        player = by_robot.get(robot.name)
        order = orders.get(player.id) if player is not None else None
        if player is not None and player.standing_orders:
            standing[robot.name] = dict(player.standing_orders)
        said = turn_option_orders(turn, robot.name, order)
        if said:
            option_orders[robot.name] = said
        if order is not None:
            if order.power_down:
                power_down.append(robot.name)
            if order.reentry_facing:
                reentry[robot.name] = order.reentry_facing
        if robot.name not in reentry and player is not None:
            facing = (player.standing_orders or {}).get("reenter_facing")
            if isinstance(facing, int) and not isinstance(facing, bool) and 0 <= facing <= 3:
                reentry[robot.name] = dir_name(facing)  # a standing REENTER FACING holds on turns with no orders
        if not needs_program(robot) or player is None or player.status != "active":
            continue  # an ejected player's robot stands idle for the rest of this turn
        locked = _locked_of(turn, robot.name)
        if order is not None and order.program:
            programs[robot.name] = cards_of(order.program)
        elif len(locked) == REGISTERS:
            programs[robot.name] = [locked[reg] for reg in range(1, REGISTERS + 1)]
        elif fill is not None:
            program = fill(player, robot, _hand_of(turn, robot.name), locked, turn.seed)
            programs[robot.name] = program
            # a fill that powers the robot down (policy ``power_down``) says so with ``fill.powers_down``
            announce = True if getattr(fill, "powers_down", False) else (order.power_down if order else None)
            if announce and robot.name not in power_down:
                power_down.append(robot.name)
            auto = Order(turn=turn, player_id=player.id, active=True, source="auto", program=cards_text(program),
                         power_down=announce,
                         reentry_facing=order.reentry_facing if order else None, actor=actor, submitted_at=now,
                         text="(no orders: filled by the missing-orders policy)")
            if order is not None:
                order.active = False
                order.superseded_at = now
            s.add(auto)
        else:
            missing.append(robot.name)
    if missing:
        raise MissingOrders(f"turn {turn.number} of {game.code} still waits for a program from "
                            f"{', '.join(missing)}", missing)
    return TurnInputs(programs, power_down, reentry, standing, option_orders)


def turn_option_orders(turn: Turn, robot: str, order: Order | None) -> dict[str, Any]:
    """The option orders for this turn on file for ``robot``: those of its active orders, and RECOMPILE
    when its hand was dealt again (that is on the turn, so it holds whatever orders follow)."""
    said = dict((order.extra or {}).get("turn_options") or {}) if order is not None else {}
    if robot in (turn.first_hands or {}):
        said[RECOMPILE] = True
    return said


def recompile_deal(hand: Sequence[Card], undealt: Sequence[Card], seed: str,
                   robot: str) -> tuple[list[Card], list[Card]]:
    """Recompile: a new hand of the same size for ``robot`` and the cards left undealt, from the turn's seed.

    The new hand comes from the cards nobody holds, shuffled; only when they run short do cards of the
    old hand come back (shuffled too). The old hand then goes back to the undealt cards.
    """
    rng = random.Random(f"recompile:{seed}:{robot}")
    pool = sorted(undealt)
    rng.shuffle(pool)
    old = sorted(hand)
    rng.shuffle(old)
    new = (pool + old)[:len(hand)]
    left = sorted(c for c in {*undealt, *hand} if c not in new)
    return new, left


def recompile_hand(s: Session, game: Game | str, robot: str, *, actor: str = "system",
                   now: datetime | None = None) -> Turn:
    """Deal ``robot`` a second hand for the open turn (the Recompile option). The deadline does not move;
    orders already sent for the robot this turn are voided (they named the old hand); the engine charges
    the damage when the turn is resolved (the RECOMPILE decision)."""
    now = now or utcnow()
    game = _locked(s, game)
    turn = open_turn(s, game)
    if turn is None or game.status not in ("running", "paused"):
        raise GameStateError(f"{game.code} has no open turn")
    player = get_player(s, game, robot)
    name = player.robot
    if name in (turn.first_hands or {}):
        raise InvalidValue(f"{name} has already recompiled in turn {turn.number}: once a turn")
    hand = _hand_of(turn, name)
    if not hand:
        raise InvalidValue(f"{name} holds no cards in turn {turn.number}, so there is no hand to deal again")
    state = next((r for r in robots_of(turn) if r.name == name), None)
    kept = flywheel_card(state) if state is not None else None   # the Flywheel's card is not part of the deal
    dealt = [c for c in hand if c != kept]
    new, left = recompile_deal(dealt, [parse_card(c) for c in turn.undealt], turn.seed, name)
    if kept is not None and kept in hand:
        new.append(kept)
    turn.first_hands = {**(turn.first_hands or {}), name: cards_text(hand)}
    turn.hands = {**turn.hands, name: cards_text(new)}
    turn.undealt = cards_text(left)
    order = active_orders(s, turn).get(player.id)
    if order is not None:
        order.active = False
        order.superseded_at = now
    audit(s, "turn.recompile", actor=actor, game=game, turn_number=turn.number, now=now,
          details={"robot": name, "first_hand": cards_text(hand), "second_hand": cards_text(new),
                   "voided_order": order.id if order is not None else None})
    return turn


def resolve_turn(s: Session, game: Game | str | int, *, expect_turn: int | None = None, fill: Fill | None = None,
                 wait: bool = True, actor: str = "system", now: datetime | None = None) -> Turn:
    """Resolve the open turn of ``game`` and deal the next one. Returns the resolved turn.

    ``expect_turn``: the turn the caller means; if the game has moved past it (another process
    resolved it) :class:`AlreadyResolved`. ``fill`` makes a program for every robot whose player
    sent none (see :data:`FILLS`); without it such a turn raises :class:`MissingOrders`.
    ``wait=False``: if another transaction holds the game (PostgreSQL), raise :class:`Busy`
    instead of waiting for it.
    """
    now = now or utcnow()
    key: int | str = game.id if isinstance(game, Game) else game
    locked_game = lock_game(s, key, skip_locked=not wait)
    if locked_game is None:
        busy = get_game(s, key)  # NotFound if there is no such game at all
        raise Busy(f"{busy.code} is being changed by another process")
    game = locked_game
    if expect_turn is not None and _resolved_already(s, game, expect_turn):
        raise AlreadyResolved(f"turn {expect_turn} of {game.code} is already resolved")
    if game.status != "running":
        raise GameStateError(f"{game.code} is {game.status}: no turn to resolve")
    turn = open_turn(s, game)
    if turn is None or (expect_turn is not None and turn.number != expect_turn):
        raise GameStateError(f"{game.code} has no open turn {expect_turn or ''}".rstrip())
    inputs = _gather_inputs(s, game, turn, fill, actor, now)
    result = run_engine(turn, game.course, inputs)
    for key_, value in {**inputs.to_columns(), **result_columns(result)}.items():
        setattr(turn, key_, value)
    turn.status = "resolved"
    turn.resolved_at = now
    turn.resolved_by = actor
    turn.engine_version = __version__
    turn.rules_version = RULES_VERSION
    turn.published_at = None if game.hold_for_review else now
    orders = active_orders(s, turn)
    for player in game.players:
        order = orders.get(player.id)
        if player.status != "active" or order is None:
            continue
        # an ``auto`` order is made only for a player who owed a program and sent none
        player.missed_turns = player.missed_turns + 1 if order.source == "auto" else 0
    _after_turn(s, game, turn, result.robots, result.winner, now, board_state=result.board_state,
                option_deck=result.option_deck)
    audit(s, "turn.resolve", actor=actor, game=game, turn_number=turn.number, now=now,
          details={"winner": result.winner, "filled": sorted(o.player.robot for o in orders.values()
                                                            if o.source == "auto")})
    return turn


def _resolved_already(s: Session, game: Game, number: int) -> bool:
    """Whether turn ``number`` has been played: the game moved past it, or (its last turn) it was
    resolved and ended the game."""
    if game.turn_number != number:
        return game.turn_number > number
    return s.scalar(select(Turn.status).where(Turn.game_id == game.id, Turn.number == number)) == "resolved"


def _after_turn(s: Session, game: Game, turn: Turn, robots: list[Robot], winner: str | None,
                now: datetime, board_state: BoardState | None = None, option_deck: list[str] | None = None) -> None:
    """Mark players out, finish the game or deal the next turn (with the board state and the option deck
    the turn left)."""
    if option_deck is None and turn.option_deck is not None:
        option_deck = list(turn.option_deck)  # the turn drew and lost nothing
    by_robot = {p.robot: p for p in game.players}
    for r in robots:
        player = by_robot.get(r.name)
        if player is not None and player.status == "active" and r.out_of_game:
            player.status = "out"
            player.left_at = now
    alive = [r for r in robots if not r.out_of_game
             and (by_robot.get(r.name) is None or by_robot[r.name].status == "active")]
    if winner or not alive:
        game.status = "finished"
        game.winner = winner
        game.finished_at = now
        game.turn_number = turn.number
        return
    next_robots = [r for r in robots if by_robot.get(r.name) is None or by_robot[r.name].status != "ejected"]
    _open_turn(s, game, turn.number + 1, next_robots, now, board_state=board_state, option_deck=option_deck)


def rules_version_note(turn: Turn) -> str | None:
    """What a re-run of ``turn`` must say when it was resolved under other rules than this engine's."""
    resolved_under = turn.rules_version or 1
    if resolved_under == RULES_VERSION:
        return None
    return (f"turn {turn.number} was resolved under rules version {resolved_under}; this engine plays "
            f"version {RULES_VERSION}, so a re-run may differ from the stored result")


def replay_turn(s: Session, game: Game, number: int) -> tuple[TurnResult, bool]:
    """Re-run stored turn ``number`` from its snapshot and inputs. Returns the result and whether it
    equals what is stored (it always should: the engine is pure)."""
    turn = get_turn(s, game, number)
    result = run_engine(turn, game.course, stored_inputs(turn))
    new, old = result_columns(result), stored_result(turn)
    same = all(new[k] == old[k] for k in new if k != "events") and same_events(old["events"], result.events)
    return result, same


def last_resolved(s: Session, game: Game) -> Turn | None:
    return s.scalars(select(Turn).where(Turn.game_id == game.id, Turn.status == "resolved")
                     .order_by(Turn.number.desc()).limit(1)).one_or_none()


def _turn_record(s: Session, turn: Turn) -> dict[str, Any]:
    """Everything about a turn, for the audit log before it is overwritten or removed."""
    record = {c.key: getattr(turn, c.key) for c in Turn.__table__.columns if c.key not in ("id", "game_id")}
    for key in ("opened_at", "deadline", "resolved_at", "published_at"):
        if record.get(key) is not None:
            record[key] = record[key].isoformat()
    record["orders"] = [{"player_id": o.player_id, "active": o.active, "source": o.source, "program": o.program,
                         "power_down": o.power_down, "reentry_facing": o.reentry_facing, "text": o.text,
                         "incoming_mail_id": o.incoming_mail_id, "submitted_at": o.submitted_at.isoformat()}
                        for o in turn.orders]
    return record


@dataclass
class Rerun:
    turn: Turn
    #: whether anything the players see changed (result or inputs)
    changed: bool
    #: whether the following turn had to be dealt again (its orders were voided)
    redealt: bool


def rerun_turn(s: Session, game: Game | str, number: int, *,
               programs: dict[str, Sequence[Card | str | None]] | None = None,
               power_down: Sequence[str] | None = None, reentry: dict[str, str] | None = None,
               state_before: Sequence[Robot] | None = None, actor: str = "system",
               now: datetime | None = None) -> Rerun:
    """Re-resolve the last resolved turn from its snapshot, with corrections (a GM ``RERUN``).

    ``programs`` replaces the programs of the robots named (checked against their hands);
    ``power_down`` / ``reentry`` replace those inputs; ``state_before`` corrects the robots the
    turn started from (the hands stay as dealt). The old result goes to the audit log. If the
    robots come out differently, the following turn is dealt again from the new state (same
    seed) and orders already sent for it are voided; if the turn now has a winner the game
    ends, if it no longer has one the game goes on.
    """
    now = now or utcnow()
    game = _locked(s, game)
    last = last_resolved(s, game)
    if last is None or last.number != number:
        raise GameStateError(f"only the last resolved turn ({last.number if last else 'none'}) of {game.code} "
                             f"can be re-run; roll back to turn {number} first")
    inputs = stored_inputs(last)
    if programs:
        by_robot = {r.name.casefold(): r.name for r in robots_of(last)}
        for robot, cards in programs.items():
            name = by_robot.get(robot.casefold())
            if name is None:
                raise NotFound(f"no robot {robot!r} in turn {number}")
            inputs.programs[name] = list(check_program(name, _hand_of(last, name), _locked_of(last, name), cards))
    if power_down is not None:
        inputs.power_down = list(power_down)
    if reentry is not None:
        inputs.reentry = {k: dir_name(parse_dir(v)) for k, v in reentry.items()}
    old = _turn_record(s, last)
    if state_before is not None:
        last.state_before = [robot_to_dict(r) for r in state_before]
    result = run_engine(last, game.course, inputs)
    new_columns = {**inputs.to_columns(), **result_columns(result)}
    changed = (any(getattr(last, k) != v for k, v in new_columns.items() if k != "events")
               or not same_events(last.events, result.events) or old["state_before"] != last.state_before)
    redealt = False
    if changed:
        state_changed = (result_columns(result)["state_after"] != last.state_after or result.winner != last.winner
                         or result_columns(result)["board_after"] != last.board_after)
        for k, v in new_columns.items():
            setattr(last, k, v)
        last.resolved_at = now
        last.resolved_by = actor
        last.engine_version = __version__
        last.published_at = None if game.hold_for_review else now
        if state_changed:
            following = s.scalars(select(Turn).where(Turn.game_id == game.id, Turn.number > number)).all()
            voided = [_turn_record(s, t) for t in following]
            for t in following:
                s.delete(t)
            s.flush()
            game.status = "running" if game.status == "finished" else game.status
            game.winner = None
            game.finished_at = None
            still_in = {r.name for r in robots_of(last) if not r.out_of_game}
            for p in game.players:
                if p.status == "out" and p.robot in still_in:
                    p.status, p.left_at = "active", None
            _after_turn(s, game, last, result.robots, result.winner, now, board_state=result.board_state,
                        option_deck=result.option_deck)
            redealt = bool(following) and game.status != "finished"
            old["voided_turns"] = voided
        audit(s, "turn.rerun", actor=actor, game=game, turn_number=number, now=now,
              details={"old": old, "winner": result.winner})
    return Rerun(last, changed, redealt)


def rollback_to(s: Session, game: Game | str, number: int, *, actor: str = "system",
                now: datetime | None = None) -> Turn:
    """Reopen turn ``number`` (a GM ``ROLLBACK``): its result and every later turn are removed (kept in
    the audit log); its orders stay, so the GM can correct them and resolve again."""
    now = now or utcnow()
    game = _locked(s, game)
    turn = get_turn(s, game, number)
    if game.status == "forming":
        raise GameStateError(f"{game.code} has not started")
    later = s.scalars(select(Turn).where(Turn.game_id == game.id, Turn.number > number)).all()
    removed = [_turn_record(s, t) for t in later]
    old = _turn_record(s, turn)
    for t in later:
        s.delete(t)
    s.flush()
    for key in ("programs", "power_down", "reentry", "standing", "option_orders", "played", "events", "state_after",
                "board_after",
                "frames",
                "winner", "phases_run", "end_of_turn", "resolved_at", "resolved_by", "published_at"):
        setattr(turn, key, None)
    turn.status = "open"
    game.turn_number = number
    if game.status == "finished":
        game.status = "running"
    game.winner = None
    game.finished_at = None
    still_in = {r.name for r in robots_of(turn) if not r.out_of_game}
    for p in game.players:
        if p.status == "out" and p.robot in still_in:
            p.status, p.left_at = "active", None
    audit(s, "turn.rollback", actor=actor, game=game, turn_number=number, now=now,
          details={"reopened": old, "removed": removed})
    return turn


def replace_open_state(s: Session, game: Game | str, robots: Sequence[Robot], *, actor: str = "system",
                       reason: str = "", now: datetime | None = None) -> Turn:
    """Correct the robots of the open turn (a GM ``SET``) and deal its hands again from the same seed.
    If the hands or fused registers change, orders already sent for the turn are voided."""
    now = now or utcnow()
    game = _locked(s, game)
    turn = open_turn(s, game)
    if turn is None:
        raise GameStateError(f"{game.code} has no open turn")
    names = [d["name"] for d in turn.state_before]
    if sorted(r.name for r in robots) != sorted(names):
        raise InvalidValue(f"the robots of turn {turn.number} are {', '.join(names)}")
    order = {name: i for i, name in enumerate(names)}
    robots = sorted(robots, key=lambda r: order[r.name])
    old = {"state_before": turn.state_before, "hands": turn.hands, "locked": turn.locked}
    dealt = deal_turn(list(robots), turn.seed)
    hands = {name: cards_text(hand) for name, hand in dealt.hands.items()}
    locked = {name: {str(reg): str(card) for reg, card in sorted(regs.items())}
              for name, regs in dealt.locked.items() if regs}
    undealt = list(dealt.undealt)
    kept_recompiles = {}
    for name, first in (turn.first_hands or {}).items():   # a recompiled hand stays if its first deal did
        if hands.get(name) == first:
            state = next(r for r in robots if r.name == name)
            kept = flywheel_card(state)
            second, undealt = recompile_deal([c for c in dealt.hands[name] if c != kept], undealt, turn.seed, name)
            hands[name] = cards_text([*second, *([kept] if kept in dealt.hands[name] else [])])
            kept_recompiles[name] = first
    turn.first_hands = kept_recompiles or None
    voided = 0
    if hands != turn.hands or locked != turn.locked:
        for o in active_orders(s, turn).values():
            o.active = False
            o.superseded_at = now
            voided += 1
    turn.state_before = [robot_to_dict(r) for r in robots]
    turn.hands, turn.locked, turn.undealt = hands, locked, cards_text(undealt)
    audit(s, "turn.correct_state", actor=actor, game=game, turn_number=turn.number, now=now,
          details={"old": old, "reason": reason, "voided_orders": voided})
    return turn


# -- game status changes ---------------------------------------------------------------------------
def pause_game(s: Session, game: Game | str, *, actor: str = "system", now: datetime | None = None) -> Game:
    now = now or utcnow()
    game = _locked(s, game)
    if game.status != "running":
        raise GameStateError(f"{game.code} is {game.status}: only a running game can be paused")
    game.status, game.paused_at = "paused", now
    audit(s, "game.pause", actor=actor, game=game, turn_number=game.turn_number, now=now)
    return game


def resume_game(s: Session, game: Game | str, *, actor: str = "system", now: datetime | None = None) -> Game:
    """Resume a paused game; the open turn's deadline moves on by the time the game was paused."""
    now = now or utcnow()
    game = _locked(s, game)
    if game.status != "paused":
        raise GameStateError(f"{game.code} is {game.status}, not paused")
    turn = open_turn(s, game)
    if turn is not None and turn.deadline is not None and game.paused_at is not None:
        turn.deadline = turn.deadline + (now - game.paused_at)
    game.status, game.paused_at = "running", None
    audit(s, "game.resume", actor=actor, game=game, turn_number=game.turn_number, now=now,
          details={"deadline": turn.deadline.isoformat() if turn and turn.deadline else None})
    return game


def set_deadline(s: Session, game: Game | str, deadline: datetime | None, *, actor: str = "system",
                 now: datetime | None = None) -> Turn:
    """Set the open turn's deadline (``None``: no deadline; the turn waits for every program)."""
    now = now or utcnow()
    game = _locked(s, game)
    turn = open_turn(s, game)
    if turn is None:
        raise GameStateError(f"{game.code} has no open turn")
    old = turn.deadline
    turn.deadline = deadline
    audit(s, "turn.deadline", actor=actor, game=game, turn_number=turn.number, now=now,
          details={"old": old.isoformat() if old else None, "new": deadline.isoformat() if deadline else None})
    return turn


def end_game(s: Session, game: Game | str, *, actor: str = "system", now: datetime | None = None) -> Game:
    """Finish a game without a winner (a GM ``END GAME``)."""
    now = now or utcnow()
    game = _locked(s, game)
    if game.status == "finished":
        raise GameStateError(f"{game.code} is finished already")
    game.status, game.finished_at = "finished", now
    audit(s, "game.end", actor=actor, game=game, turn_number=game.turn_number, now=now)
    return game


def publish_turn(s: Session, game: Game | str, number: int, *, actor: str = "system",
                 now: datetime | None = None) -> Turn:
    """Mark a resolved turn's results as released to the players (hold-for-review ``PUBLISH``).
    Mails held in the outbox for it are released by :func:`referee.store.mail.release_held`."""
    now = now or utcnow()
    game = _locked(s, game)
    turn = get_turn(s, game, number)
    if turn.status != "resolved":
        raise GameStateError(f"turn {number} of {game.code} is not resolved")
    turn.published_at = now
    audit(s, "turn.publish", actor=actor, game=game, turn_number=number, now=now)
    return turn


# -- views (JSON-able dicts for the CLI, reports and the GM) -----------------------------------------
def game_view(s: Session, game: Game, *, secrets_too: bool = False) -> dict[str, Any]:
    """The state of a game as plain data: settings, open turn, players and their robots."""
    turn = open_turn(s, game) or (last_resolved(s, game) if game.turn_number else None)
    orders = active_orders(s, turn) if turn is not None and turn.status == "open" else {}
    robots = {}
    if turn is not None:
        robots = {d["name"]: d for d in (turn.state_before if turn.status == "open" else turn.state_after or [])}
    owing = {p.id for p in waiting_for(s, game)}
    players = []
    for p in game.players:
        entry: dict[str, Any] = {"seat": p.seat, "robot": p.robot, "email": p.email, "name": p.name,
                                 "colour": p.colour, "status": p.status, "missed_turns": p.missed_turns,
                                 "orders": _orders_state(p.id, orders, owing),
                                 "state": robots.get(p.robot)}
        if turn is not None and turn.status == "open":
            entry["hand"] = turn.hands.get(p.robot, [])
            entry["locked"] = turn.locked.get(p.robot, {})
        if secrets_too:
            entry["secret"] = p.secret
        players.append(entry)
    return {
        "code": game.code, "title": game.title, "course": game.course, "status": game.status,
        "rules": game.rules, "turn": game.turn_number, "winner": game.winner,
        "deadline": turn.deadline.isoformat() if turn is not None and turn.status == "open" and turn.deadline
        else None,
        "deadline_seconds": game.deadline_seconds, "missing_orders": game.missing_orders,
        "hold_for_review": game.hold_for_review, "players": players,
    }


def _orders_state(player_id: int, orders: dict[int, Order], owing: set[int]) -> str:
    if player_id in owing:
        return "owed"
    return "in" if player_id in orders else "none needed"


def turn_view(s: Session, game: Game, number: int, *, hands: bool = True) -> dict[str, Any]:
    """One stored turn as plain data: seed, hands, programs, events, robots before and after."""
    turn = get_turn(s, game, number)
    out: dict[str, Any] = {
        "game": game.code, "turn": turn.number, "status": turn.status, "seed": turn.seed, "rules": turn.rules,
        "engine_version": turn.engine_version, "opened_at": turn.opened_at.isoformat(),
        "deadline": turn.deadline.isoformat() if turn.deadline else None,
        "resolved_at": turn.resolved_at.isoformat() if turn.resolved_at else None,
        "resolved_by": turn.resolved_by, "state_before": turn.state_before, "locked": turn.locked,
        "programs": turn.programs, "power_down": turn.power_down, "reentry": turn.reentry,
        "played": turn.played, "events": contract_events(turn.events), "state_after": turn.state_after,
        "winner": turn.winner,
        "phases_run": turn.phases_run, "end_of_turn": turn.end_of_turn,
    }
    if turn.option_orders:
        out["option_orders"] = turn.option_orders
    if hands:
        out["hands"] = turn.hands
        if turn.first_hands:
            out["first_hands"] = turn.first_hands   # the hands recompiled away
    by_id = {p.id: p.robot for p in game.players}
    out["orders"] = [{"robot": by_id.get(o.player_id), "active": o.active, "source": o.source, "program": o.program,
                      "power_down": o.power_down, "reentry_facing": o.reentry_facing,
                      "submitted_at": o.submitted_at.isoformat()} for o in turn.orders]
    return out
