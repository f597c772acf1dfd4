"""Trust in the mail loop, through real mail (SMTP into Dovecot, IMAP out) and the tick.

A turn corrected with ROLLBACK ... PROCESS reaches every player, Message-IDs never repeat across
databases, a past deadline needs the GM's NOW, and ROLLBACK keeps what a RERUN corrected.
"""

from __future__ import annotations

import asyncio
import email
import hashlib
import re
from dataclasses import replace
from datetime import datetime, timedelta
from email import policy

import aioimaplib
import aiosmtplib
from sqlalchemy import select

from referee import games as g
from referee.common.config import Settings
from referee.cron.tick import tick
from referee.engine import Card
from referee.store import Store
from referee.store.mail_models import IncomingMail, OutgoingMail
from tests.e2e.test_game_by_mail import (
    GAME,
    PLAYERS,
    SECRET,
    T0,
    Mailer,
    at,
    orders,
    pick,
    text_of,
    turn_form,
)
from tests.intake.replies import make_corpus as corpus
from tests.servers.dovecot import password

Form = tuple[str, list[Card], email.message.EmailMessage]


def subjects(mails: list[email.message.EmailMessage]) -> list[str]:
    return [str(m["Subject"]) for m in mails]


class Table:
    """The GM, the players and the referee's cron, all by mail."""

    def __init__(self, settings: Settings, store: Store, mail: Mailer, now: datetime = T0) -> None:
        self.settings, self.store, self.mail, self.now = settings, store, mail, now

    def run(self, minutes: int = 0) -> None:
        self.now += timedelta(minutes=minutes)
        summary = tick(self.settings, now=self.now, store=self.store)
        assert summary.ok, summary.line()

    def gm(self, *lines: str) -> str:
        self.mail.send("gm", f"BEGIN GM {GAME} key {SECRET}\n" + "\n".join(lines) + "\nEND\n", subject="commands")
        self.run(1)
        answers = [m for m in self.mail.inbox("gm") if "GM commands" in str(m["Subject"])]
        return "\n".join(text_of(m) for m in answers)

    def start(self) -> dict[str, Form]:
        answer = self.gm(f"NEWGAME {GAME} COURSE duel RULE start=numbered DEADLINE 2d REMINDER 1d SETTLE 0 "
                         "MISSING random "
                         "SEED trust",
                         *(f"ADD PLAYER {at(user)} {robot}" for robot, user in PLAYERS.items()), "START")
        assert "NOT DONE" not in answer and "started" in answer, answer
        return {robot: turn_form(self.mail.inbox(user)) for robot, user in PLAYERS.items()}

    def play(self, forms: dict[str, Form], seed: int) -> dict[str, list[email.message.EmailMessage]]:
        """Every player sends a program from their form; returns the mails each robot's player got then."""
        for robot, (begin, hand, msg) in forms.items():
            self.mail.send(PLAYERS[robot], orders(begin, pick(self.store, robot, hand, win=False, seed=seed)),
                           f"Re: {msg['Subject']}", in_reply_to=msg["Message-ID"])
        self.run(5)
        return {robot: self.mail.inbox(user) for robot, user in PLAYERS.items()}

    def turn(self) -> int:
        with self.store.read() as s:
            return g.get_game(s, GAME).turn_number


def everything_in(dovecot, user: str) -> list[email.message.EmailMessage]:
    """Every mail in ``user``'s INBOX, read or not."""
    async def fetch() -> list[email.message.EmailMessage]:
        client = aioimaplib.IMAP4("127.0.0.1", dovecot.imap_port, timeout=10)
        await client.wait_hello_from_server()
        await client.login(at(user), password(user))
        await client.select("INBOX")
        out = []
        for uid in (await client.uid_search("ALL")).lines[0].split():
            reply = await client.uid("fetch", uid.decode(), "(BODY.PEEK[])")
            out.append(email.message_from_bytes(bytes(reply.lines[1]), policy=policy.default))
        await client.logout()
        return out
    return asyncio.run(fetch())


def test_a_turn_corrected_with_rollback_orders_and_process_reaches_every_player(settings, store, dovecot,
                                                                               smtp_server):
    """The recipe of docs/gm.md: ROLLBACK 1, ORDERS for the robot whose program was wrong, PROCESS."""
    table = Table(settings, store, Mailer(dovecot, smtp_server))
    forms = table.start()
    first = {robot: turn_form(got) for robot, got in table.play(forms, seed=1).items()}
    assert table.turn() == 2

    _, hand, _ = forms["Twonky"]
    other = pick(table.store, "Twonky", list(reversed(hand)), win=False, seed=7)
    answer = table.gm("ROLLBACK 1", f"ORDERS Twonky {', '.join(str(c) for c in other)}", "PROCESS")
    assert "NOT DONE" not in answer and "turn 1 resolved" in answer, answer

    with table.store.read() as s:
        turn2 = g.get_turn(s, g.get_game(s, GAME), 2)
        hands = {robot: list(cards) for robot, cards in turn2.hands.items()}
    second = {}
    for robot, user in PLAYERS.items():
        got = table.mail.inbox(user)
        # one mail: the new results, whose news block says the turn was reopened (docs/gm.md)
        assert [s.startswith(f"{GAME} turn 1 results") for s in subjects(got)] == [True], subjects(got)
        assert "turn 1 was reopened by the game master" in " ".join(text_of(got[0]).split())
        second[robot] = turn_form(got)
        assert [str(c) for c in second[robot][1]] == hands[robot]
        assert second[robot][2]["Message-ID"] != first[robot][2]["Message-ID"]

    # the new hands are the ones that count: orders from them are taken
    got = table.play(second, seed=2)
    for robot in PLAYERS:
        assert f"{GAME} {robot} turn 2: orders accepted" in subjects(got[robot]), subjects(got[robot])
    assert table.turn() == 3


def test_a_deadline_in_the_past_needs_the_gms_now(settings, store, dovecot, smtp_server):
    table = Table(settings, store, Mailer(dovecot, smtp_server))
    table.start()
    past = table.now - timedelta(days=30)
    typo = past.strftime("%Y-%m-%d %H:%M")
    answer = table.gm(f"SET DEADLINE {typo}")
    assert "NOT DONE" in answer and "already past" in answer and f"SET DEADLINE {typo} NOW" in answer, answer
    table.run(10)
    assert table.turn() == 1
    assert not any("new deadline" in str(m["Subject"]) for m in table.mail.inbox("alice"))

    answer = table.gm(f"SET DEADLINE {typo} NOW")
    # the answer writes the deadline as the players' mails do: weekday, date, UTC, and that it has passed
    assert f"done: deadline of turn 1: {past:%a} {past.day} {past:%b %Y, %H:%M} UTC (passed)" in answer, answer
    table.run(1)
    assert table.turn() == 2


def test_rollback_after_a_rerun_keeps_the_corrected_program(settings, store, dovecot, smtp_server):
    table = Table(settings, store, Mailer(dovecot, smtp_server))
    forms = table.start()
    table.play(forms, seed=1)
    _, hand, _ = forms["Twonky"]
    with table.store.read() as s:
        sent = g.get_turn(s, g.get_game(s, GAME), 1).programs["Twonky"]
    fixed = next(p for p in (pick(table.store, "Twonky", hand, win=False, seed=n) for n in range(20, 40))
                 if [str(c) for c in p] != sent)
    answer = table.gm(f"RERUN 1 Twonky: {', '.join(str(c) for c in fixed)}", "ROLLBACK 1", "PROCESS")
    assert "NOT DONE" not in answer, answer
    assert "corrected programs are kept as orders for Twonky" in answer, answer
    assert "turn 1 resolved" in answer, answer
    with table.store.read() as s:
        assert g.get_turn(s, g.get_game(s, GAME), 1).programs["Twonky"] == [str(c) for c in fixed]


def test_no_message_id_repeats_with_other_content_across_a_trial_and_the_real_season(settings, store, dovecot,
                                                                                    smtp_server, tmp_path):
    """A trial season on one database, the database reset, the real season on a new one (same game
    code, same players, same turn numbers): no Message-ID ever stands for two different mails."""
    trial_url = f"sqlite:///{tmp_path / 'trial.sqlite3'}"
    mail = Mailer(dovecot, smtp_server)
    with Store(trial_url) as trial:
        trial.upgrade()
        table = Table(replace(settings, database_url=trial_url), trial, mail)
        got = table.play(table.start(), seed=1)
        table.play({robot: turn_form(mails) for robot, mails in got.items()}, seed=2)
    table = Table(settings, store, mail, now=T0 + timedelta(days=10))
    got = table.play(table.start(), seed=3)
    table.play({robot: turn_form(mails) for robot, mails in got.items()}, seed=4)

    contents: dict[str, set[str]] = {}
    for user in ("gm", *PLAYERS.values()):
        for msg in everything_in(dovecot, user):
            if at("referee") not in str(msg["From"]):
                continue
            body = str(msg["Subject"]) + "\n" + text_of(msg)
            contents.setdefault(str(msg["Message-ID"]), set()).add(hashlib.sha256(body.encode()).hexdigest())
    assert len(contents) > 20
    repeated = {mid: n for mid, n in contents.items() if len(n) > 1}
    assert not repeated



def send_raw(mail: Mailer, user: str, raw: str, to: str) -> None:
    """A mail as a client wrote it, byte for byte, into the referee's inbox over SMTP."""
    data = raw.replace("\n", "\r\n").encode()
    asyncio.run(aiosmtplib.send(data, sender=at(user), recipients=[to], hostname="127.0.0.1", port=mail.smtp.port,
                                start_tls=False, timeout=10))


def test_replies_with_stray_lines_attributions_and_signatures_are_taken(settings, store, dovecot, smtp_server):
    """Plain replies to the turn mail (no BEGIN block: the Reply-To carries the key) from German
    Thunderbird, Outlook for iOS, French and Dutch Gmail, with "A.", phone numbers, addresses and
    "2 more flags to go." around the program: every one is taken, the stray lines listed."""
    table = Table(settings, store, Mailer(dovecot, smtp_server))
    forms = table.start()
    lang = {lg.code: lg for lg in corpus.LANGS}
    shapes = {
        "Twonky": lambda body, n: corpus.thunderbird(lang["de"], body, n, "accept"),
        "Hammer": lambda body, n: corpus.outlook(lang["en"], body, n, "accept", ios=True),
        "Zoom": lambda body, n: corpus.gmail(lang["fr"], body, n, "accept", wrapped=True),
    }
    for n, (robot, (_, _hand, msg)) in enumerate(forms.items(), start=1):
        user = PLAYERS[robot]
        body = corpus.body_of(lang["en"], "1, 2, 3, 4, 5", signature="plain")
        if robot == "Hammer":
            body = "Hi,\n\n1, 2, 3, 4, 5\n\nA."
        raw = shapes[robot](body, n).replace("alice@example.test", at(user))
        raw = raw.replace(corpus.TURN_ID, str(msg["Message-ID"]))
        raw = raw.replace(f"To: {corpus.REFEREE}", f"To: {msg['Reply-To']}")
        send_raw(table.mail, user, raw, str(msg["Reply-To"]))
    table.run(1)
    with table.store.read() as s:
        game = g.get_game(s, GAME)
        assert game.turn_number == 2
        played = g.get_turn(s, game, 1).programs
    for robot, (_, hand, _) in forms.items():
        assert played[robot] == [str(c) for c in hand[:5]]
        (echo,) = [m for m in table.mail.inbox(PLAYERS[robot]) if "orders accepted" in str(m["Subject"])]
        skipped = text_of(echo)
        assert ": A." in skipped, skipped
        if robot != "Hammer":
            assert "2 more flags to go." in skipped and "+44 20 7946 0958" in skipped, skipped
        assert "schrieb" not in skipped and "a écrit" not in skipped and "Outlook" not in skipped, skipped


def postfix_dsn(original_id: str, rcpt: str, queue_id: str, *, auto_submitted: bool = True) -> str:
    """Postfix's RFC 3464 report: a multipart/report with the original's headers."""
    auto = "Auto-Submitted: auto-replied\n" if auto_submitted else ""
    return f"""Return-Path: <>
From: MAILER-DAEMON@mx.players.example (Mail Delivery System)
Subject: Undelivered Mail Returned to Sender
To: {at("referee")}
{auto}Message-ID: <20261122224012.{queue_id}@mx.players.example>
Date: Sun, 22 Nov 2026 22:40:12 +0100 (CET)
MIME-Version: 1.0
Content-Type: multipart/report; report-type=delivery-status;
\tboundary="4F1A21C0123.1763847612/mx.players.example"

This is a MIME-encapsulated message.

--4F1A21C0123.1763847612/mx.players.example
Content-Description: Notification
Content-Type: text/plain; charset=us-ascii

This is the mail system at host mx.players.example.

I'm sorry to have to inform you that your message could not
be delivered to one or more recipients. It's attached below.

<{rcpt}>: host mx.players.example[192.0.2.25] said: 550 5.1.1
    <{rcpt}>: Recipient address rejected: User unknown in virtual mailbox
    table (in reply to RCPT TO command)

--4F1A21C0123.1763847612/mx.players.example
Content-Description: Delivery report
Content-Type: message/delivery-status

Reporting-MTA: dns; mx.players.example
X-Postfix-Queue-ID: 4F1A21C0123
Arrival-Date: Sun, 22 Nov 2026 22:40:11 +0100 (CET)

Final-Recipient: rfc822; {rcpt}
Original-Recipient: rfc822;{rcpt}
Action: failed
Status: 5.1.1
Remote-MTA: dns; mx.players.example
Diagnostic-Code: smtp; 550 5.1.1 <{rcpt}>: Recipient address rejected: User
    unknown in virtual mailbox table

--4F1A21C0123.1763847612/mx.players.example
Content-Description: Undelivered Message Headers
Content-Type: text/rfc822-headers

From: RoboRally referee <{at("referee")}>
To: {rcpt}
Subject: E2E-1 has started: your cards for turn 1
Message-ID: {original_id}
Auto-Submitted: auto-generated

--4F1A21C0123.1763847612/mx.players.example--
"""


def qmail_failure_notice(original_id: str, rcpt: str) -> str:
    """qmail's non-standard bounce: plain text, the original below a line."""
    return f"""From: MAILER-DAEMON@mail.players.example
To: {at("referee")}
Subject: failure notice
Message-ID: <1763847612.4711.qmail@mail.players.example>
Date: 22 Nov 2026 21:40:12 -0000

Hi. This is the qmail-send program at mail.players.example.
I'm afraid I wasn't able to deliver your message to the following addresses.
This is a permanent error; I've given up. Sorry it didn't work out.

<{rcpt}>:
Sorry, no mailbox here by that name. (#5.1.1)

--- Below this line is a copy of the message.

Return-Path: <{at("referee")}>
From: RoboRally referee <{at("referee")}>
To: {rcpt}
Subject: E2E-1 has started: your cards for turn 1
Message-ID: {original_id}

Your cards for turn 1 ...
"""


def test_a_bounce_of_a_players_mail_is_not_answered_but_the_gm_is_told_once(settings, store, dovecot, smtp_server):
    table = Table(settings, store, Mailer(dovecot, smtp_server))
    forms = table.start()
    bob_mail, carol_mail = forms["Hammer"][2]["Message-ID"], forms["Zoom"][2]["Message-ID"]
    for raw in (postfix_dsn(bob_mail, at("bob"), "4F1A21C0123"),
                postfix_dsn(bob_mail, at("bob"), "4F1A21C0124", auto_submitted=False),
                qmail_failure_notice(carol_mail, at("carol")),
                # a report about a mail the referee never sent changes nothing
                postfix_dsn("<not-ours@elsewhere.example>", at("alice"), "4F1A21C0125")):
        send_raw(table.mail, "referee", raw, at("referee"))
    table.run(1)

    told = [m for m in table.mail.inbox("gm") if "bounced" in str(m["Subject"])]
    assert sorted(str(m["Subject"]) for m in told) == [
        "[GM] bounced: E2E-1 has started: your cards for turn 1"] * 2
    texts = "\n".join(text_of(m) for m in told)
    assert "Hammer in E2E-1" in texts and "Zoom in E2E-1" in texts and "REPLACE Hammer WITH" in texts
    assert "5.1.1" in texts
    with table.store.read() as s:
        rows = {m.message_id: m for m in s.scalars(select(OutgoingMail))}
        assert rows[bob_mail].status == "failed" and rows[bob_mail].last_error.startswith("bounced: 5.1.1")
        assert rows[carol_mail].status == "failed"
        assert rows[str(forms["Twonky"][2]["Message-ID"])].status == "sent"
        assert not [m for m in rows.values() if any("daemon" in r.lower() for r in m.recipients)]
        outcomes = [m.outcome for m in s.scalars(select(IncomingMail).where(IncomingMail.from_addr.like("mailer%")))]
    assert outcomes == ["ignored"] * 4


def test_answers_say_no_more_than_is_true(settings, store, dovecot, smtp_server):
    """The quoted-template hint only when the quoted block was filled in; STATUS times without seconds;
    HELP does not promise that a new mail without the key works; no "time left" once the game is over;
    the turn mails of one player and game are one conversation."""
    table = Table(settings, store, Mailer(dovecot, smtp_server))
    forms = table.start()
    _, _, alice_form = forms["Twonky"]
    quoted = "\n".join("> " + line for line in text_of(alice_form).splitlines())
    # a typo above the quoted turn mail (its empty template quoted with it): no hint about the quote
    table.mail.send("alice", f"FWD2 670, LFT 90, 3, 4, 5\nHELP\n\nOn Sun, referee wrote:\n{quoted}\n",
                    f"Re: {alice_form['Subject']}", in_reply_to=alice_form["Message-ID"])
    # the orders written into the quoted template (its BEGIN line carries bob's key): read, and what was
    # wrong with them answered, with no hint about quotes
    _, _, bob_form = forms["Hammer"]
    filled = "\n".join("> " + (line + " 1" if line.strip() in ("1:", "2:", "3:") else line)
                       for line in text_of(bob_form).splitlines())
    table.mail.send("bob", f"Here you go\n\nOn Sun, referee wrote:\n{filled}\n", f"Re: {bob_form['Subject']}",
                    in_reply_to=bob_form["Message-ID"])
    table.run(1)
    (alice,) = [m for m in table.mail.inbox("alice") if "not accepted" in str(m["Subject"])]
    assert "without the \">\" marks" not in text_of(alice)
    assert "or write a new one" not in text_of(alice) and "BEGIN ... END block of your turn" in text_of(alice)
    (bob,) = [m for m in table.mail.inbox("bob") if "not accepted" in str(m["Subject"])]
    assert "read the order form you filled in within the quoted turn mail" in text_of(bob)
    assert "without the \">\" marks" not in text_of(bob)

    status = table.gm("STATUS")
    # the deadline as the players' mails write it: weekday, date, clock time in UTC, then the time left
    assert re.search(r"deadline [A-Z][a-z]{2} \d{1,2} [A-Z][a-z]{2} \d{4}, \d\d:\d\d UTC \(in [^)]+\),", status), status
    assert not re.search(r"\d\d:\d\d:\d\d", status), status

    table.play(forms, seed=1)
    with table.store.read() as s:
        rows = list(s.scalars(select(OutgoingMail).where(OutgoingMail.player_id.is_not(None),
                                                          OutgoingMail.kind.in_(("turn_start", "turn_report")))))
    by_player: dict[int | None, list[OutgoingMail]] = {}
    for row in rows:
        by_player.setdefault(row.player_id, []).append(row)
    for start, report in (sorted(r, key=lambda m: m.id) for r in by_player.values()):
        msg = email.message_from_bytes(report.raw, policy=policy.default)
        assert msg["In-Reply-To"] == start.message_id and start.message_id in str(msg["References"])

    assert "done: ended" in table.gm("END GAME")
    _, _, carol_form = forms["Zoom"]
    table.mail.send("carol", "1, 2, 3, 4, 5\n", f"Re: {carol_form['Subject']}", in_reply_to=carol_form["Message-ID"])
    table.run(1)
    (carol,) = [m for m in table.mail.inbox("carol") if "not accepted" in str(m["Subject"])]
    assert "is finished" in text_of(carol) and "Time left" not in text_of(carol), text_of(carol)


def test_notices_of_one_moment_reach_a_player_as_one_mail(settings, store, dovecot, smtp_server):
    table = Table(settings, store, Mailer(dovecot, smtp_server))
    table.start()
    table.gm("PAUSE")
    table.mail.inbox("alice")
    table.now += timedelta(days=1)
    answer = table.gm("RESUME", "EXTEND 1d")
    assert "NOT DONE" not in answer, answer
    (got,) = table.mail.inbox("alice")
    assert str(got["Subject"]) == f"{GAME}: 2 changes by the game master"
    assert "- the game is resumed" in text_of(got) and "- the deadline of turn 1 is now" in text_of(got)
