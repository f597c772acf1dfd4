"""The mail tables: every mail taken in (raw, with what was made of it), the outbox, and what the intake counts.

They sit beside :mod:`referee.store.models` (which loads them with the other tables)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from .base import Base, one_of
from .types import utcnow

INCOMING_OUTCOMES = ("new", "accepted", "rejected", "ignored", "error", "unreadable")
OUTGOING_STATUSES = ("pending", "sending", "sent", "failed", "held", "cancelled")


class IncomingMail(Base):
    """A mail as received, raw, and what was made of it. Never deleted by the referee; the body of one
    no live game needs is dropped after ``retention_days`` (:mod:`referee.store.retention`)."""

    __tablename__ = "incoming_mails"
    __table_args__ = (
        UniqueConstraint("mailbox", "uidvalidity", "uid"),
        one_of("outcome", INCOMING_OUTCOMES, "outcome"),
        Index(None, "outcome"),
        Index(None, "sha256"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    #: ``imap``, ``maildir``, ``stdin``...
    source: Mapped[str] = mapped_column(String(16))
    #: IMAP identity: the folder (named so it is unique across accounts), UIDVALIDITY and UID
    mailbox: Mapped[str | None] = mapped_column(String(400))
    uidvalidity: Mapped[int | None] = mapped_column(BigInteger)
    uid: Mapped[int | None] = mapped_column(BigInteger)
    #: the Message-ID header as written (angle brackets included); a mail is taken once per id
    message_id: Mapped[str | None] = mapped_column(String(998), unique=True)
    sha256: Mapped[str] = mapped_column(String(64))
    raw: Mapped[bytes] = mapped_column(LargeBinary)
    size: Mapped[int] = mapped_column(Integer)
    from_addr: Mapped[str | None] = mapped_column(String(320))
    subject: Mapped[str | None] = mapped_column(Text)
    received_at: Mapped[datetime] = mapped_column(default=utcnow)
    #: ``new`` until processed; then ``accepted``, ``rejected`` (see reason), ``ignored`` (loop,
    #: bounce, unknown sender...), ``unreadable`` (no parser could read it: kept raw, never answered),
    #: or ``error`` (processing failed; it can be re-processed)
    outcome: Mapped[str] = mapped_column(String(16), default="new")
    reason: Mapped[str | None] = mapped_column(Text)
    processed_at: Mapped[datetime | None] = mapped_column()
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    #: when the mail was moved to the processed folder (or flagged) on the IMAP server
    moved_at: Mapped[datetime | None] = mapped_column()
    #: when its body was dropped by the retention rule (``raw`` is then its header only)
    purged_at: Mapped[datetime | None] = mapped_column()
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id", ondelete="SET NULL"), index=True)
    player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id", ondelete="SET NULL"))
    turn_number: Mapped[int | None] = mapped_column(Integer)

    def __repr__(self) -> str:
        return f"<IncomingMail {self.id} {self.message_id} {self.outcome}>"


class OutgoingMail(Base):
    """The outbox: a mail, fully rendered, from the moment it is decided until it is sent."""

    __tablename__ = "outgoing_mails"
    __table_args__ = (one_of("status", OUTGOING_STATUSES, "status"), Index(None, "status", "next_attempt_at"),
                      # a player's thread without reading the mails (migration 0012)
                      Index("ix_outgoing_mails_thread", "game_id", "player_id", "kind", "turn_number", "message_id"))

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    #: stable, so a mail sent twice after a crash is recognised by clients
    message_id: Mapped[str] = mapped_column(String(998), unique=True)
    #: ``turn_report``, ``echo``, ``rejection``, ``reminder``, ``gm``, ``notice``...
    kind: Mapped[str] = mapped_column(String(32))
    sender: Mapped[str] = mapped_column(String(320))
    #: envelope recipients
    recipients: Mapped[list[Any]] = mapped_column(JSON)
    subject: Mapped[str] = mapped_column(Text, default="")
    raw: Mapped[bytes] = mapped_column(LargeBinary)
    #: ``pending`` -> ``sending`` (claimed, lease until ``next_attempt_at``) -> ``sent``;
    #: ``failed`` (permanently), ``held`` (waits for the GM to publish), ``cancelled``
    status: Mapped[str] = mapped_column(String(16), default="pending")
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    #: times it was claimed again while ``sending`` (its sender stopped, perhaps after the server took it):
    #: each one a possible duplicate delivery, with the same Message-ID
    resends: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    last_error: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    next_attempt_at: Mapped[datetime] = mapped_column(default=utcnow)
    sent_at: Mapped[datetime | None] = mapped_column()
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id", ondelete="SET NULL"), index=True)
    player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id", ondelete="SET NULL"))
    turn_number: Mapped[int | None] = mapped_column(Integer)
    in_reply_to_id: Mapped[int | None] = mapped_column(ForeignKey("incoming_mails.id", ondelete="SET NULL"))

    def __repr__(self) -> str:
        return f"<OutgoingMail {self.id} {self.kind} {self.status}>"



class IntakeMark(Base):
    """One thing the intake counts over a time window (:mod:`referee.intake.limits`): an answer to an
    address, a forged mail in a player's name, a wrong key for a robot, orders taken from a sender."""

    __tablename__ = "intake_marks"
    __table_args__ = (Index(None, "kind", "key", "at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    #: ``answer``, ``error``, ``forged``, ``wrong_key``, ``orders``, ``notice``...
    kind: Mapped[str] = mapped_column(String(16))
    #: what is counted: a normalised address, a player id, a digest
    key: Mapped[str] = mapped_column(String(400))
    at: Mapped[datetime] = mapped_column(default=utcnow)
    incoming_mail_id: Mapped[int | None] = mapped_column(ForeignKey("incoming_mails.id", ondelete="SET NULL"))


