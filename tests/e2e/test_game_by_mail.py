"""A three-player game from NEWGAME to a winner through mail alone.

The GM and the players only send mail (SMTP into the referee's Dovecot inbox) and read mail (IMAP,
their own inboxes); the referee only runs ``tick``. On the way: a player who is late (reminded a day
before the deadline, and the turn resolved at the deadline), a PAUSE and RESUME, and a GM correction
with RERUN that turns out to decide the race.
"""

from __future__ import annotations

import asyncio
import email
import random
import re
from datetime import UTC, datetime, timedelta
from email import policy
from email.message import EmailMessage
from email.utils import make_msgid

import aioimaplib
import aiosmtplib

from referee import games as g
from referee.boards import load_board
from referee.common.config import Settings
from referee.cron.tick import tick
from referee.engine import Card, parse_card, resolve_turn
from referee.store import Store
from tests.servers.dovecot import DOMAIN, password

T0 = datetime(2026, 9, 1, 9, 0, tzinfo=UTC)
GAME = "E2E-1"
SECRET = "e2e-gm-secret"
PLAYERS = {"Twonky": "alice", "Hammer": "bob", "Zoom": "carol"}
HAND_LINE = re.compile(r"^\s+(\d)\s+([A-Z0-9]+ \d+)\s*$", re.MULTILINE)
BEGIN = re.compile(r"^BEGIN \S+ \S+ turn \d+ key \S+$", re.MULTILINE)


def at(addr: str) -> str:
    return f"{addr}@{DOMAIN}"


class Mailer:
    def __init__(self, dovecot, smtp_server) -> None:
        self.dovecot, self.smtp = dovecot, smtp_server
        self.seen: dict[str, set[bytes]] = {}

    def send(self, user: str, body: str, subject: str = "orders", in_reply_to: str | None = None) -> None:
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = at(user), at("referee"), subject
        msg["Message-ID"] = make_msgid(domain="players.example")
        if in_reply_to:
            msg["In-Reply-To"] = in_reply_to
        msg.set_content(body)
        asyncio.run(aiosmtplib.send(msg, hostname="127.0.0.1", port=self.smtp.port, start_tls=False, timeout=10))

    def inbox(self, user: str) -> list[email.message.EmailMessage]:
        """The mails in ``user``'s INBOX not read before, oldest first."""
        async def fetch() -> list[email.message.EmailMessage]:
            client = aioimaplib.IMAP4("127.0.0.1", self.dovecot.imap_port, timeout=10)
            await client.wait_hello_from_server()
            await client.login(at(user), password(user))
            await client.select("INBOX")
            uids = (await client.uid_search("ALL")).lines[0].split()
            out = []
            seen = self.seen.setdefault(user, set())
            for uid in uids:
                if uid in seen:
                    continue
                seen.add(uid)
                reply = await client.uid("fetch", uid.decode(), "(BODY.PEEK[])")
                out.append(email.message_from_bytes(bytes(reply.lines[1]), policy=policy.default))
            await client.logout()
            return out
        return asyncio.run(fetch())


def text_of(msg: email.message.EmailMessage) -> str:
    return msg.get_body(("plain",)).get_content().replace("\r\n", "\n")


def turn_form(mails: list[email.message.EmailMessage]) -> tuple[str, list[Card], email.message.EmailMessage]:
    """The BEGIN line and the hand of the newest mail carrying an order form."""
    for msg in reversed(mails):
        text = text_of(msg)
        m = BEGIN.search(text)
        if m:
            return m.group(0), [parse_card(c) for _, c in HAND_LINE.findall(text)], msg
    raise AssertionError("no order form in: " + ", ".join(str(m["Subject"]) for m in mails))


def pick(store: Store, robot: str, hand: list[Card], *, win: bool, seed: int) -> list[Card]:
    """A program that does (or does not) take ``robot`` to the flag this turn, tried on the engine."""
    with store.read() as s:
        game = g.get_game(s, GAME)
        robots = g.robots_of(g.open_turn(s, game))
        board = load_board(game.course)
    rng = random.Random(seed)
    for _ in range(2000):
        program = rng.sample(hand, 5)
        result = resolve_turn(board, robots, {robot: list(program)}, seed=0)
        me = next(r for r in result.robots if r.name == robot)
        if (result.winner == robot) == win and not me.destroyed:
            return program
    raise AssertionError(f"no program from {hand} with win={win}")


def tick_ok(settings: Settings, store: Store, at_time: datetime) -> None:
    """One tick at ``at_time``, which must go without errors."""
    summary = tick(settings, now=at_time, store=store)
    assert summary.ok, summary.line()


def gm_commands(mail: Mailer, settings: Settings, store: Store, at_time: datetime, *lines: str,
                game: str = GAME) -> str:
    """The GM mails ``lines`` as a command block for ``game``, a tick runs; every answer the GM has had, as text."""
    mail.send("gm", f"BEGIN GM {game} key {SECRET}\n" + "\n".join(lines) + "\nEND\n", subject="commands")
    tick_ok(settings, store, at_time)
    answers = [m for m in mail.inbox("gm") if "GM commands" in str(m["Subject"]) or "Re:" in str(m["Subject"])]
    return "\n".join(text_of(m) for m in answers)


def orders(begin: str, program: list[Card]) -> str:
    return begin + "\n" + "\n".join(f"{i}: {c}" for i, c in enumerate(program, start=1)) + "\nEND\n"


def test_a_game_runs_from_newgame_to_a_winner_by_mail_alone(settings, store, dovecot, smtp_server):
    mail = Mailer(dovecot, smtp_server)
    now = T0

    def run(at_time: datetime) -> None:
        tick_ok(settings, store, at_time)

    def gm(*lines: str) -> str:
        return gm_commands(mail, settings, store, now, *lines)

    # -- the GM sets the game up ------------------------------------------------------------------------
    answer = gm(f"NEWGAME {GAME} COURSE duel RULE start=numbered DEADLINE 2d REMINDER 1d SETTLE 0 MISSING random "
                "SEED e2e",
                *(f"ADD PLAYER {at(user)} {robot}" for robot, user in PLAYERS.items()), "START")
    assert "NOT DONE" not in answer and "started" in answer, answer
    forms = {robot: turn_form(mail.inbox(user)) for robot, user in PLAYERS.items()}

    # -- turn 1: Zoom's player is late ----------------------------------------------------------------------
    sent = {}
    for robot in ("Twonky", "Hammer"):
        begin, hand, msg = forms[robot]
        sent[robot] = pick(store, robot, hand, win=False, seed=1)
        mail.send(PLAYERS[robot], orders(begin, sent[robot]), "Re: turn 1", in_reply_to=msg["Message-ID"])
    now += timedelta(hours=1)
    run(now)
    (echo,) = [m for m in mail.inbox("alice") if str(m["Subject"]) == f"{GAME} Twonky turn 1: orders accepted"]
    assert all(f"{i}: {card}" in text_of(echo) for i, card in enumerate(sent["Twonky"], start=1))
    with store.read() as s:
        assert g.get_game(s, GAME).turn_number == 1  # still waiting for Zoom
    now += timedelta(hours=24)
    run(now)
    reminders = [m for m in mail.inbox("carol") if "your orders, please" in str(m["Subject"])]
    assert len(reminders) == 1 and "Zoom" in text_of(reminders[0])
    assert not any("your orders, please" in str(m["Subject"]) for m in mail.inbox("bob"))
    now = T0 + timedelta(days=2, minutes=1)
    run(now)
    with store.read() as s:
        game = g.get_game(s, GAME)
        assert game.turn_number == 2 and game.winner is None
    bob = mail.inbox("bob")
    assert any("results" in str(m["Subject"])
               and "Late players: no orders came from Zoom" in " ".join(text_of(m).split()) for m in bob)
    forms = {robot: turn_form(mail.inbox(user) if user != "bob" else bob) for robot, user in PLAYERS.items()}

    # -- the GM pauses the game; the deadline moves on by the pause -------------------------------------------
    with store.read() as s:
        deadline = g.open_turn(s, g.get_game(s, GAME)).deadline
    assert "done: paused" in gm("PAUSE")
    assert any("game paused" in str(m["Subject"]) for m in mail.inbox("carol"))
    now += timedelta(hours=5)
    assert "done: resumed" in gm("RESUME")
    with store.read() as s:
        assert g.open_turn(s, g.get_game(s, GAME)).deadline == deadline + timedelta(hours=5)

    # -- turn 2: everyone in; Twonky misses the flag ------------------------------------------------------------
    for robot, (begin, hand, msg) in forms.items():
        mail.send(PLAYERS[robot], orders(begin, pick(store, robot, hand, win=False, seed=2)), "Re: turn 2",
                  in_reply_to=msg["Message-ID"])
    now += timedelta(minutes=10)
    run(now)
    with store.read() as s:
        game = g.get_game(s, GAME)
        assert game.turn_number == 3 and game.status == "running"
        turn2 = g.get_turn(s, game, 2)
        hand2 = [parse_card(c) for c in turn2.hands["Twonky"]]
        before = g.robots_of(turn2)
        programs = {name: [parse_card(c) for c in cards] for name, cards in turn2.programs.items()}
    # The GM finds Twonky's program was misread: the player meant one that reaches the flag.
    board = load_board("duel")
    rng = random.Random(3)
    meant = None
    for _ in range(5000):
        trial = rng.sample(hand2, 5)
        if resolve_turn(board, before, {**programs, "Twonky": trial}, seed=turn2.seed).winner == "Twonky":
            meant = trial
            break
    assert meant is not None, "no winning program in Twonky's turn-2 hand for this seed"
    answer = gm(f"RERUN 2 Twonky: {', '.join(str(c) for c in meant)}")
    assert "re-run" in answer and "NOT DONE" not in answer, answer

    with store.read() as s:
        game = g.get_game(s, GAME)
        assert game.status == "finished" and game.winner == "Twonky"
    corrections = [m for m in mail.inbox("carol") if str(m["Subject"]).startswith("Correction")]
    assert corrections and "Twonky wins" in str(corrections[-1]["Subject"])
    assert any("turn 2 corrected" in str(m["Subject"]) for m in mail.inbox("alice"))
