"""The tables of the people round a game: game masters and co-masters, sign-up, departures and former
holders, absences, press, observers, confirmations and address preferences (issue 31).

They sit beside :mod:`referee.store.models` (which loads them with the other tables)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    Boolean,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from .base import Base, one_of
from .types import utcnow


class GameMaster(Base):
    """A game master added by the operator (``referee gm-admin add``). The configured ``gm_address`` is a GM
    without a row: its key is ``gm_secret`` in the settings. A removed GM keeps the row (``active`` false)."""

    __tablename__ = "game_masters"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    #: lower case, one per GM
    address: Mapped[str] = mapped_column(String(320), unique=True)
    #: SHA-256 (hex) of the GM's key: the key itself is shown once, when made, and never stored
    secret_hash: Mapped[str] = mapped_column(String(64), index=True)
    active: Mapped[bool] = mapped_column(Boolean, default=True)
    added_at: Mapped[datetime] = mapped_column(default=utcnow)
    #: who added (or last re-added) the GM: ``cli:<user>``
    added_by: Mapped[str] = mapped_column(String(200), default="")
    secret_changed_at: Mapped[datetime] = mapped_column(default=utcnow)
    removed_at: Mapped[datetime | None] = mapped_column()

    def __repr__(self) -> str:
        return f"<GameMaster {self.address} {'active' if self.active else 'removed'}>"


class CoMaster(Base):
    """A GM who may run a game beside its master (``COMASTER ADD`` by the game's master)."""

    __tablename__ = "game_comasters"
    __table_args__ = (UniqueConstraint("game_id", "address"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    #: lower case
    address: Mapped[str] = mapped_column(String(320), index=True)
    added_at: Mapped[datetime] = mapped_column(default=utcnow)
    added_by: Mapped[str] = mapped_column(String(200), default="")


# -- the community: sign-up, a player's own commands, press, observers (issue 31) ----------------------------
PRESS_MODES = ("off", "grey", "white")
RESIGN_POLICIES = ("open", "autopilot")
ABSENCE_POLICIES = ("wait", "autopilot")
SIGNUP_STATUSES = ("pending", "accepted", "refused")
CONFIRMATION_KINDS = ("address", "observe")
OBSERVER_STATUSES = ("active", "left")


class GameCommunity(Base):
    """A game's sign-up and community settings (a game without a row: closed, press white, defaults)."""

    __tablename__ = "game_community"
    __table_args__ = (one_of("press", PRESS_MODES, "press"), one_of("on_resign", RESIGN_POLICIES, "on_resign"),
                      one_of("on_absence", ABSENCE_POLICIES, "on_absence"))

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    #: players may JOIN (GM ``OPEN``)
    open: Mapped[bool] = mapped_column(Boolean, default=False)
    #: how many seats the GM opened (None: as many as the course takes)
    seats: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: JOIN is taken until then (None: until the GM closes sign-up or the game starts)
    until: Mapped[datetime | None] = mapped_column(nullable=True)
    #: start the game once every seat is taken
    autostart: Mapped[bool] = mapped_column(Boolean, default=False)
    #: ``off``, ``grey`` (anonymous) or ``white`` (the sender's robot named)
    press: Mapped[str] = mapped_column(String(8), default="white")
    #: press goes into the archive once the game is over
    press_archive: Mapped[bool] = mapped_column(Boolean, default=False)
    #: a running game's robot after its player resigns: ``open`` (the GM looks for a new player, the missing
    #: orders policy plays meanwhile) or ``autopilot`` (played by the policy to the end)
    on_resign: Mapped[str] = mapped_column(String(16), default="open")
    #: a turn whose deadline falls in a player's absence: ``wait`` (the GM is told and may extend) or
    #: ``autopilot`` (the turn does not wait for that player: the missing orders policy plays)
    on_absence: Mapped[str] = mapped_column(String(16), default="wait")


class SignUp(Base):
    """A JOIN waiting for the GM (or decided)."""

    __tablename__ = "signups"
    __table_args__ = (one_of("status", SIGNUP_STATUSES, "status"), Index(None, "game_id", "status"))

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    #: the address that asked (lower case)
    address: Mapped[str] = mapped_column(String(320))
    robot: Mapped[str] = mapped_column(String(32))
    #: a running game's open seat this JOIN takes over (the robot's player id), or None: a new seat
    seat_of: Mapped[int | None] = mapped_column(ForeignKey("players.id", ondelete="SET NULL"), nullable=True)
    status: Mapped[str] = mapped_column(String(16), default="pending")
    reason: Mapped[str | None] = mapped_column(Text, nullable=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    decided_at: Mapped[datetime | None] = mapped_column(nullable=True)


class Departure(Base):
    """A player who resigned (RESIGN): the policy the game had then."""

    __tablename__ = "departures"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    #: a seat may be resigned again after a new player took it over (migration 0016)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    robot: Mapped[str] = mapped_column(String(32))
    address: Mapped[str] = mapped_column(String(320))
    policy: Mapped[str] = mapped_column(String(16))
    at: Mapped[datetime] = mapped_column(default=utcnow)


FORMER_HOLDER_HOWS = ("resigned", "replaced", "ejected")


class FormerHolder(Base):
    """Someone who held a robot and left it (issue 41, :mod:`referee.games.states`): her mail about it is
    answered in words of its own and nothing of it is taken. Only a digest of the key she held is kept."""

    __tablename__ = "former_holders"
    __table_args__ = (one_of("how", FORMER_HOLDER_HOWS, "how"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    robot: Mapped[str] = mapped_column(String(32))
    #: her address of record then, lower case
    address: Mapped[str] = mapped_column(String(320), index=True)
    #: ``resigned``, ``replaced`` or ``ejected``
    how: Mapped[str] = mapped_column(String(16))
    #: SHA-256 (hex) of the key she held (:func:`referee.games.states.key_digest`)
    key_digest: Mapped[str] = mapped_column(String(64))
    at: Mapped[datetime] = mapped_column(default=utcnow)


class Absence(Base):
    """A player away from one day to another (ABSENT), both days included."""

    __tablename__ = "absences"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)
    #: the first day away, 00:00 UTC
    starts: Mapped[datetime] = mapped_column()
    #: the day after the last day away, 00:00 UTC
    ends: Mapped[datetime] = mapped_column()
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class PressMessage(Base):
    """A press message relayed between players (kept for the GM and, if the game says so, the archive)."""

    __tablename__ = "press"
    __table_args__ = (Index(None, "game_id", "at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    sender_id: Mapped[int | None] = mapped_column(ForeignKey("players.id", ondelete="SET NULL"))
    #: the robot it went to, or None: to all
    to_id: Mapped[int | None] = mapped_column(ForeignKey("players.id", ondelete="SET NULL"), nullable=True)
    #: ``grey`` or ``white``, as the game was when it was sent
    mode: Mapped[str] = mapped_column(String(8))
    turn_number: Mapped[int | None] = mapped_column(Integer, nullable=True)
    text: Mapped[str] = mapped_column(Text)
    at: Mapped[datetime] = mapped_column(default=utcnow)
    incoming_mail_id: Mapped[int | None] = mapped_column(ForeignKey("incoming_mails.id", ondelete="SET NULL"))


class Observer(Base):
    """An address that gets a game's public turn results (OBSERVE, confirmed by the address itself)."""

    __tablename__ = "observers"
    __table_args__ = (UniqueConstraint("game_id", "address"), one_of("status", OBSERVER_STATUSES, "status"))

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    address: Mapped[str] = mapped_column(String(320))
    status: Mapped[str] = mapped_column(String(8), default="active")
    #: the signed token of the unsubscribe address (``List-Unsubscribe``)
    token: Mapped[str] = mapped_column(String(80), default="")
    confirmed_at: Mapped[datetime] = mapped_column(default=utcnow)
    left_at: Mapped[datetime | None] = mapped_column(nullable=True)


class Confirmation(Base):
    """Something an address must confirm before it happens: a new address of record, an observer."""

    __tablename__ = "confirmations"
    __table_args__ = (one_of("kind", CONFIRMATION_KINDS, "kind"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))
    #: the address that must answer (the new address; the observer's)
    address: Mapped[str] = mapped_column(String(320))
    #: the address of record it changes (``address``), lower case
    old_address: Mapped[str | None] = mapped_column(String(320), nullable=True)
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), nullable=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    expires_at: Mapped[datetime] = mapped_column()
    done_at: Mapped[datetime | None] = mapped_column(nullable=True)


class AddressPrefs(Base):
    """What a player (by address) allows: their address shown by WHOIS (off by default)."""

    __tablename__ = "address_prefs"

    address: Mapped[str] = mapped_column(String(320), primary_key=True)
    show_address: Mapped[bool] = mapped_column(Boolean, default=False)
