"""The game store's tables (SQLAlchemy 2.0 typed models).

One database holds everything a game needs so that any turn can be shown, disputed, re-run and
corrected, and nothing a player sent is ever lost:

- :class:`Game`: code (``RR-7``), course, house rules, deadlines, status, the game's seed.
- :class:`Player`: address, robot name, colour, per-player secret, missed-turn counter.
- :class:`Turn`: per turn the seed, the hands dealt and locked registers, the robots before (a
  snapshot), what was fed to the engine (programs, power-down announcements, re-entry facings),
  and what came out (event log, robots after, frames, winner). Robots' state per turn lives in
  the snapshots (``state_before`` / ``state_after``, lists of ``robot_to_dict`` dicts).
- :class:`Order`: every program accepted for a player and turn, the last one ``active``.
- :class:`TurnNotice`: reminders and other once-only notices sent for a turn.
- :class:`AuditEntry`: everything a GM (or the operator) changed.
- :class:`ServiceState`: small named values of the service itself (e.g. when the tick last ran).

Times are aware UTC datetimes (:class:`~referee.store.types.UTCDateTime`). Card lists are stored
as strings (``"FWD2 670"``); robots as ``referee.engine.snapshot.robot_to_dict`` dicts. JSON
columns are not watched for changes inside them: assign a new value (``x.col = {**x.col, ...}``).
The mail tables are in :mod:`.mail_models`, the game masters and the community in
:mod:`.community_models`; importing this module loads them all into ``Base.metadata``.
Changing a model means a new Alembic revision in ``migrations/versions`` (see ``referee db``).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, ClassVar

from sqlalchemy import (
    JSON,
    Boolean,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import Mapped, mapped_column, relationship

from ..engine.version import RULES_VERSION
from . import community_models, mail_models  # noqa: F401  (every table is loaded with the models)
from .base import Base as Base
from .base import one_of
from .types import utcnow

GAME_STATUSES = ("forming", "running", "paused", "finished")
PLAYER_STATUSES = ("active", "out", "ejected")
TURN_STATUSES = ("open", "resolved")
ORDER_SOURCES = ("cli", "mail", "gm", "auto")
MISSING_ORDERS_POLICIES = ("random", "power_down", "repeat_locked", "autopilot")

#: defaults of a new game (issue 6 documents what they mean for the tick)
DEFAULT_DEADLINE_SECONDS = 5 * 24 * 3600
DEFAULT_REMINDER_SECONDS = 24 * 3600
DEFAULT_MAX_MISSED_TURNS = 3
#: the settle delay of a new game: half an hour after the last program to amend it
DEFAULT_SETTLE_SECONDS = 30 * 60



class Game(Base):
    __tablename__ = "games"
    __table_args__ = (one_of("status", GAME_STATUSES, "status"),
                      one_of("missing_orders", MISSING_ORDERS_POLICIES, "missing_orders"),
                      # the tick's due games (running, attention_at passed) and retention's finished games
                      Index(None, "status", "attention_at"))

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    #: the name players and mails use, e.g. ``RR-7``
    code: Mapped[str] = mapped_column(String(32), unique=True)
    title: Mapped[str] = mapped_column(String(200), default="")
    #: board or course name (``referee board list``)
    course: Mapped[str] = mapped_column(String(64))
    #: house rules (``Rules.to_dict()``), all keys present
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    #: every turn's seed is derived from this one (``f"{seed}:{turn}"``)
    seed: Mapped[str] = mapped_column(String(64))
    status: Mapped[str] = mapped_column(String(16), default="forming")
    #: the open turn while running or paused; the last turn played once finished; 0 while forming
    turn_number: Mapped[int] = mapped_column(Integer, default=0)
    #: how long players have after a turn mail
    deadline_seconds: Mapped[int] = mapped_column(Integer, default=DEFAULT_DEADLINE_SECONDS)
    #: how long before the deadline the missing players are reminded
    reminder_seconds: Mapped[int] = mapped_column(Integer, default=DEFAULT_REMINDER_SECONDS)
    #: delay after the last orders came in before a turn is resolved (players may still amend)
    settle_seconds: Mapped[int] = mapped_column(Integer, default=DEFAULT_SETTLE_SECONDS)
    #: a fixed clock time (``HH:MM`` UTC) every deadline falls on, or None: the deadline is the turn
    #: mail's time plus ``deadline_seconds``
    deadline_time: Mapped[str | None] = mapped_column(String(5), nullable=True)
    #: what a player who sent nothing by the deadline plays
    missing_orders: Mapped[str] = mapped_column(String(16), default="autopilot")
    #: missed turns in a row after which the GM is told the seat is open
    max_missed_turns: Mapped[int] = mapped_column(Integer, default=DEFAULT_MAX_MISSED_TURNS)
    #: turn results go to the GM first; they are sent to players when published
    hold_for_review: Mapped[bool] = mapped_column(Boolean, default=False)
    #: players may ask for HINT (the autopilot's three best programs for their hand)
    hints: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    #: the rules version (``referee.engine.RULES_VERSION``) the game plays: the one it started with, until its GM
    #: moves it (``SET RULES 4``); each turn is dealt and resolved under the version the game had when dealt
    rules_version: Mapped[int] = mapped_column(Integer, nullable=False, default=RULES_VERSION, server_default="3")
    gm_address: Mapped[str | None] = mapped_column(String(320))
    #: robot name of the winner, once finished with one
    winner: Mapped[str | None] = mapped_column(String(32))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    started_at: Mapped[datetime | None] = mapped_column()
    paused_at: Mapped[datetime | None] = mapped_column()
    finished_at: Mapped[datetime | None] = mapped_column()
    #: when the tick must next look at the game (the end of the settle delay, a reminder, the deadline), None:
    #: not until something changes; kept by :mod:`referee.store.attention`, indexed (the tick reads what is due)
    attention_at: Mapped[datetime | None] = mapped_column(nullable=True)
    #: bumped on every update; a write from a stale copy fails instead of overwriting (lost update)
    version: Mapped[int] = mapped_column(Integer, nullable=False)

    players: Mapped[list[Player]] = relationship(back_populates="game", order_by="Player.seat",
                                                 cascade="all, delete-orphan")
    turns: Mapped[list[Turn]] = relationship(back_populates="game", order_by="Turn.number",
                                             cascade="all, delete-orphan")

    __mapper_args__: ClassVar[dict[str, Any]] = {"version_id_col": version}

    def __repr__(self) -> str:
        return f"<Game {self.code} {self.status} turn {self.turn_number}>"


class Player(Base):
    __tablename__ = "players"
    __table_args__ = (
        UniqueConstraint("game_id", "seat"),
        UniqueConstraint("game_id", "robot_key"),
        UniqueConstraint("game_id", "email"),
        UniqueConstraint("game_id", "colour"),
        one_of("status", PLAYER_STATUSES, "status"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    #: 1, 2, ... in the order players joined; robot n starts on start square n (numbered start)
    seat: Mapped[int] = mapped_column(Integer)
    robot: Mapped[str] = mapped_column(String(32))
    #: ``robot.casefold()``: robot names are unique in a game regardless of case
    robot_key: Mapped[str] = mapped_column(String(32))
    #: address of record, lower case
    email: Mapped[str] = mapped_column(String(320))
    #: the player's name as given (may be empty)
    name: Mapped[str] = mapped_column(String(200), default="")
    colour: Mapped[str] = mapped_column(String(16))
    #: what a mail must carry to count as this player's (issue 4)
    secret: Mapped[str] = mapped_column(String(64))
    status: Mapped[str] = mapped_column(String(16), default="active")
    #: turns in a row resolved without orders from this player
    missed_turns: Mapped[int] = mapped_column(Integer, default=0)
    #: orders that hold until changed (e.g. the option-sacrifice threshold)
    standing_orders: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    #: an IANA time zone (``Europe/Berlin``) deadlines are also shown in, or None: UTC only
    timezone: Mapped[str | None] = mapped_column(String(64), nullable=True)
    #: the pictures the player's turn mails carry (``SET PICTURES``): all, stages (no animation) or none
    pictures: Mapped[str] = mapped_column(String(8), default="all", server_default="all")
    joined_at: Mapped[datetime] = mapped_column(default=utcnow)
    left_at: Mapped[datetime | None] = mapped_column()

    game: Mapped[Game] = relationship(back_populates="players")

    def __repr__(self) -> str:
        return f"<Player {self.robot} {self.email} seat {self.seat}>"


class Turn(Base):
    __tablename__ = "turns"
    __table_args__ = (UniqueConstraint("game_id", "number"), one_of("status", TURN_STATUSES, "status"))

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    number: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(16), default="open")
    #: the engine seed of this turn (dealing and resolution), ``f"{game.seed}:{number}"``
    seed: Mapped[str] = mapped_column(String(100))
    #: house rules in force for this turn
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    #: ``referee.__version__`` that dealt (and, once resolved, resolved) the turn
    engine_version: Mapped[str] = mapped_column(String(32))
    #: ``referee.engine.RULES_VERSION`` the turn was dealt, and so is resolved, under: the game's when it was dealt
    #: (None: resolved before rules had a version, which is version 1)
    rules_version: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: when the turn mail went out (the turn opened); deadlines count from here
    opened_at: Mapped[datetime] = mapped_column()
    deadline: Mapped[datetime | None] = mapped_column()
    resolved_at: Mapped[datetime | None] = mapped_column()
    #: who resolved it (``cli:alice``, ``tick``, ``gm:...``)
    resolved_by: Mapped[str | None] = mapped_column(String(200))
    #: when the results went to the players (they wait for the GM under hold-for-review)
    published_at: Mapped[datetime | None] = mapped_column()

    # -- what the turn started from -----------------------------------------------------------
    #: every robot at the start of the turn (``robot_to_dict``), seat order
    state_before: Mapped[list[Any]] = mapped_column(JSON)
    #: robot -> the cards dealt, in the order dealt (hand position 1 first)
    hands: Mapped[dict[str, Any]] = mapped_column(JSON)
    #: robot -> {register: card} for every fused register this turn
    locked: Mapped[dict[str, Any]] = mapped_column(JSON)
    #: cards nobody holds this turn (randomizers draw from them)
    undealt: Mapped[list[Any]] = mapped_column(JSON)
    #: what the board's elements remember at the start of the turn (``BoardState.to_dict()``); None: nothing
    board_before: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    #: the game's option deck at the start of the turn, top first (None: a turn opened before option
    #: cards were dealt; the engine then shuffles the turn seed's deck less the cards held)
    option_deck: Mapped[list[Any] | None] = mapped_column(JSON, nullable=True)

    # -- what went into the engine (fixed when resolved) --------------------------------------
    #: robot -> five registers (card or None) as resolved, locked registers included
    programs: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    #: robots whose players announced a power down for the next turn
    power_down: Mapped[list[Any] | None] = mapped_column(JSON)
    #: robot -> facing (N/E/S/W) chosen for re-entry
    reentry: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    #: robot -> standing orders in force when resolved
    standing: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    #: robot -> option orders for this turn only (``{subject: answer}``, see engine/option_orders.py)
    option_orders: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    #: robot -> the hand dealt first, for robots that recompiled (``hands`` then holds the second hand)
    first_hands: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)

    # -- what came out --------------------------------------------------------------------------
    #: robot -> cards as executed per register (randomizers may change them)
    played: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    #: the event log (``Event.to_dict()``)
    events: Mapped[Any] = mapped_column(JSON, nullable=True)  # typed events (engine.event_codec), or the old word list
    #: every robot at the end of the turn
    state_after: Mapped[list[Any] | None] = mapped_column(JSON)
    #: what the board's elements remember at the end of the turn; None: nothing
    board_after: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    #: the robots at the start, after each register phase and after the end of turn
    frames: Mapped[list[Any] | None] = mapped_column(JSON)
    winner: Mapped[str | None] = mapped_column(String(32))
    phases_run: Mapped[int | None] = mapped_column(Integer)
    end_of_turn: Mapped[bool | None] = mapped_column(Boolean)

    game: Mapped[Game] = relationship(back_populates="turns")
    orders: Mapped[list[Order]] = relationship(back_populates="turn", order_by="Order.id",
                                               cascade="all, delete-orphan")
    notices: Mapped[list[TurnNotice]] = relationship(back_populates="turn", cascade="all, delete-orphan")

    def __repr__(self) -> str:
        return f"<Turn {self.number} of game {self.game_id} {self.status}>"


class Order(Base):
    """One program (and the other orders of a turn) accepted for a player. The newest is ``active``."""

    __tablename__ = "orders"
    __table_args__ = (Index(None, "turn_id", "player_id"), one_of("source", ORDER_SOURCES, "source"))

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    turn_id: Mapped[int] = mapped_column(ForeignKey("turns.id", ondelete="CASCADE"))
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    #: the orders in force for this player and turn (older ones stay, inactive, for the record)
    active: Mapped[bool] = mapped_column(Boolean, default=True)
    #: where they came from: ``cli``, ``mail``, ``gm`` (entered by the GM), ``auto`` (missing orders)
    source: Mapped[str] = mapped_column(String(16))
    #: five registers, card or None, locked registers filled in
    program: Mapped[list[Any]] = mapped_column(JSON)
    #: announce a power down for the next turn (True), cancel one (False), or nothing said (None)
    power_down: Mapped[bool | None] = mapped_column(Boolean)
    #: facing for re-entry if the robot is destroyed this turn
    reentry_facing: Mapped[str | None] = mapped_column(String(1))
    #: further orders (fire orders, option choices...) as the order parser produces them
    extra: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    #: the orders as written (the block read from the mail, or the command line)
    text: Mapped[str | None] = mapped_column(Text)
    incoming_mail_id: Mapped[int | None] = mapped_column(ForeignKey("incoming_mails.id", ondelete="SET NULL"))
    actor: Mapped[str | None] = mapped_column(String(200))
    submitted_at: Mapped[datetime] = mapped_column(default=utcnow)
    superseded_at: Mapped[datetime | None] = mapped_column()

    turn: Mapped[Turn] = relationship(back_populates="orders")
    player: Mapped[Player] = relationship()

    def __repr__(self) -> str:
        return f"<Order {self.id} player {self.player_id} turn {self.turn_id} active={self.active}>"



class TurnNotice(Base):
    """A notice sent once per turn (and player): a reminder, a late notice, a seat-open notice..."""

    __tablename__ = "turn_notices"
    __table_args__ = (UniqueConstraint("turn_id", "kind", "player_key"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    turn_id: Mapped[int] = mapped_column(ForeignKey("turns.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(32))
    #: the player's id as text, or ``""`` for a notice about the whole turn (NULLs would not be unique)
    player_key: Mapped[str] = mapped_column(String(32), default="")
    sent_at: Mapped[datetime] = mapped_column(default=utcnow)
    outgoing_mail_id: Mapped[int | None] = mapped_column(ForeignKey("outgoing_mails.id", ondelete="SET NULL"))

    turn: Mapped[Turn] = relationship(back_populates="notices")



class AuditEntry(Base):
    """One change made by a GM or the operator (or by the referee on their behalf), with details."""

    __tablename__ = "audit_log"
    __table_args__ = (Index(None, "game_id", "at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    at: Mapped[datetime] = mapped_column(default=utcnow)
    #: who: ``cli:<user>``, ``gm:<address>``, ``tick``...
    actor: Mapped[str] = mapped_column(String(200))
    #: what, dotted: ``game.new``, ``player.add``, ``turn.resolve``, ``turn.rerun``, ``robot.set``...
    action: Mapped[str] = mapped_column(String(64))
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id", ondelete="SET NULL"))
    turn_number: Mapped[int | None] = mapped_column(Integer)
    #: the particulars, including old values where something was overwritten
    details: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)

    def __repr__(self) -> str:
        return f"<AuditEntry {self.id} {self.action} by {self.actor}>"


class ServiceState(Base):
    """A named value the service keeps for itself (e.g. ``tick.last_run``)."""

    __tablename__ = "service_state"

    key: Mapped[str] = mapped_column(String(100), primary_key=True)
    value: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)
