"""Mails, games and mailboxes for the intake tests."""

from __future__ import annotations

import asyncio
import email
import uuid
from datetime import UTC, datetime
from email import policy
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid

import aioimaplib
from sqlalchemy import select

from referee import games as g
from referee.common.config import Settings
from referee.store import Store
from referee.store.mail_models import IncomingMail, OutgoingMail
from referee.store.models import Order, Player
from tests.servers.dovecot import DOMAIN, password

REFEREE = f"referee@{DOMAIN}"
GM = f"gm@{DOMAIN}"
GM_SECRET = "gm-secret-42"
#: robot -> the Dovecot user playing it
PLAYERS = {"Twonky": "alice", "Hammer": "bob", "Zoom": "carol"}


def address(user: str) -> str:
    return f"{user}@{DOMAIN}"


def settings_for(dovecot, db_url: str, **changes: object) -> Settings:
    """The referee reading ``referee@``'s INBOX on the test Dovecot, moving mail to Processed."""
    base = Settings(database_url=db_url, referee_address=REFEREE, referee_name="RoboRally referee",
                    gm_address=GM, gm_secret=GM_SECRET, signing_key="intake-tests", transport="imap",
                    imap_host="127.0.0.1", imap_port=dovecot.imap_port, imap_tls="none", imap_user=REFEREE,
                    imap_password=password("referee"), imap_mailbox="INBOX", imap_processed="Processed",
                    smtp_host="127.0.0.1", smtp_tls="none", mail_timeout=10.0, error_replies_per_hour=5)
    return base.with_overrides(**changes)


# -- mails -------------------------------------------------------------------------------------------------
def mail(frm: str, body: str, *, subject: str = "orders", to: str = REFEREE, html: str | None = None,
         headers: dict[str, str] | None = None, msgid: str | None = None) -> bytes:
    """A mail as a player's client would send it (CRLF line ends, a Message-ID, a Date)."""
    msg = EmailMessage()
    msg["From"] = frm
    msg["To"] = to
    msg["Subject"] = subject
    msg["Date"] = format_datetime(datetime.now(UTC))
    msg["Message-ID"] = msgid or make_msgid(domain="client.example.test")
    for name, value in (headers or {}).items():
        msg[name] = value
    if html is not None and not body:
        msg.set_content(html, subtype="html")
    else:
        msg.set_content(body)
        if html is not None:
            msg.add_alternative(html, subtype="html")
    return msg.as_bytes(policy=policy.SMTP)


def parse(raw: bytes) -> EmailMessage:
    return email.message_from_bytes(raw, policy=policy.default)  # type: ignore[return-value]


def text_of(raw: bytes) -> str:
    part = parse(raw).get_body(("plain",))
    assert part is not None
    return part.get_content().replace("\r\n", "\n")


# -- the mail server -----------------------------------------------------------------------------------------
async def login(dovecot, user: str = "referee") -> aioimaplib.IMAP4:
    client = aioimaplib.IMAP4("127.0.0.1", dovecot.imap_port, timeout=20)
    await client.wait_hello_from_server()
    assert (await client.login(dovecot.address(user), password(user))).result == "OK"
    return client


async def append(dovecot, raws: list[bytes], *, user: str = "referee", mailbox: str = "INBOX") -> None:
    """Deliver mails by IMAP APPEND."""
    client = await login(dovecot, user)
    try:
        for raw in raws:
            response = await asyncio.wait_for(client.append(raw, mailbox=mailbox), 20)
            assert response.result == "OK", response
    finally:
        await client.logout()


async def count(dovecot, mailbox: str = "INBOX", *, user: str = "referee", unseen: bool = False) -> int:
    client = await login(dovecot, user)
    try:
        response = await client.status(mailbox, "(MESSAGES UNSEEN)")
        assert response.result == "OK", response
        words = response.lines[0].decode().replace("(", " ").replace(")", " ").split()
        values = dict(zip(words[1::2], words[2::2], strict=False))
        return int(values["UNSEEN" if unseen else "MESSAGES"])
    finally:
        await client.logout()


def ensure_mailbox(dovecot, name: str, user: str = "referee") -> None:
    """Create a mailbox (if missing) and empty it."""
    if name not in dovecot.doveadm("mailbox", "list", "-u", dovecot.address(user)).split():
        dovecot.doveadm("mailbox", "create", "-u", dovecot.address(user), name)
    dovecot.empty(user, name)


async def message_ids(dovecot, mailbox: str, *, user: str = "referee") -> list[str]:
    """The Message-ID of every mail in ``mailbox``, read 100 mails a command (aioimaplib's parser recurses
    once per line of an answer: a few hundred mails in one answer exceed Python's recursion limit)."""
    client = await login(dovecot, user)
    try:
        assert (await client.select(mailbox)).result == "OK"
        found = await client.search("ALL")
        numbers = [int(n) for n in found.lines[0].split() if n.isdigit()]
        out = []
        for start in range(0, len(numbers), 100):
            chunk = numbers[start:start + 100]
            response = await client.fetch(f"{chunk[0]}:{chunk[-1]}", "(BODY.PEEK[HEADER.FIELDS (MESSAGE-ID)])")
            assert response.result == "OK", response
            out.extend(parse(bytes(line))["Message-ID"] for line in response.lines if isinstance(line, bytearray))
        return out
    finally:
        await client.logout()


# -- games ---------------------------------------------------------------------------------------------------
def new_game(store: Store, *, now: datetime | None = None, course: str = "sprint", **kwargs: object) -> str:
    """A started game with alice (Twonky), bob (Hammer) and carol (Zoom); its code."""
    now = now or datetime.now(UTC)
    code = f"T{uuid.uuid4().hex[:6].upper()}"
    with store.write() as s:
        game = g.create_game(s, course=course, code=code, seed="intake", now=now, actor="test", **kwargs)  # type: ignore[arg-type]
        for robot, user in PLAYERS.items():
            g.add_player(s, game, email=address(user), robot=robot, name=user.title(), actor="test", now=now)
        g.start_game(s, game, actor="test", now=now)
    return code


def player(store: Store, code: str, robot: str) -> Player:
    with store.read() as s:
        return g.get_player(s, g.get_game(s, code), robot)


def hand(store: Store, code: str, robot: str) -> list[str]:
    with store.read() as s:
        turn = g.open_turn(s, g.get_game(s, code))
        assert turn is not None
        return list(turn.hands[robot])


def turn_number(store: Store, code: str) -> int:
    with store.read() as s:
        return g.get_game(s, code).turn_number


def block(store: Store, code: str, robot: str, lines: list[str], *, key: str | None = None,
          turn: int | None = None) -> str:
    """A BEGIN ... END block for ``robot`` with its key (or ``key``)."""
    p = player(store, code, robot)
    number = turn if turn is not None else turn_number(store, code)
    return "\n".join([f"BEGIN {code} {robot} turn {number} key {key or p.secret}", *lines, "END"]) + "\n"


def program_lines(cards: list[str]) -> list[str]:
    return [f"{i}: {c}" for i, c in enumerate(cards, start=1)]


def orders(store: Store, code: str, robot: str) -> list[Order]:
    """The robot's orders for the open turn, oldest first."""
    with store.read() as s:
        game = g.get_game(s, code)
        p = g.get_player(s, game, robot)
        turn = g.open_turn(s, game)
        assert turn is not None
        return list(s.scalars(select(Order).where(Order.player_id == p.id, Order.turn_id == turn.id)
                              .order_by(Order.id)))


def active_program(store: Store, code: str, robot: str) -> list[str] | None:
    """The program in force for the open turn (None: none)."""
    active = [o for o in orders(store, code, robot) if o.active]
    return list(active[-1].program) if active else None


def outbox(store: Store, **where: object) -> list[OutgoingMail]:
    with store.read() as s:
        stmt = select(OutgoingMail).order_by(OutgoingMail.id)
        for key, value in where.items():
            stmt = stmt.where(getattr(OutgoingMail, key) == value)
        return list(s.scalars(stmt))


def incoming(store: Store) -> list[IncomingMail]:
    with store.read() as s:
        return list(s.scalars(select(IncomingMail).order_by(IncomingMail.id)))
