"""A community on one referee, through the real IMAP and SMTP servers (issue 31): a player joins an open game
by mail and the GM accepts; a player resigns from another game, moves to a new address (confirmed from
there) and gets press; an observer subscribes, gets the public results, and unsubscribes with the mail's own
List-Unsubscribe address, after which no more results come."""

from __future__ import annotations

import asyncio
import contextlib
import re
import subprocess
from datetime import timedelta
from email.message import EmailMessage
from email.utils import make_msgid
from urllib.parse import unquote

import aiosmtplib

from referee import games as g
from tests.e2e.test_game_by_mail import SECRET, T0, Mailer, at, text_of, tick_ok


def send(mail: Mailer, user: str, body: str, *, subject: str = "commands", to: str | None = None,
         in_reply_to: str | None = None) -> None:
    """``user`` mails the referee (at ``to``: a reply address, when given)."""
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = at(user), to or at("referee"), subject
    msg["Message-ID"] = make_msgid(domain="players.example")
    if in_reply_to:
        msg["In-Reply-To"] = in_reply_to
    msg.set_content(body)
    asyncio.run(aiosmtplib.send(msg, hostname="127.0.0.1", port=mail.smtp.port, start_tls=False, timeout=10))


def subjects(mails) -> list[str]:
    return [str(m["Subject"]) for m in mails]


def test_join_resign_new_address_press_and_an_observer_by_mail(settings, store, dovecot, smtp_server):
    for user in ("dave", "erin", "heidi"):   # the e2e fixture empties only the referee's, the GM's and the players'
        with contextlib.suppress(subprocess.CalledProcessError):
            dovecot.empty(user, "INBOX")
    mail = Mailer(dovecot, smtp_server)
    now = T0

    def run() -> None:
        tick_ok(settings, store, now)

    def gm(code: str, *lines: str) -> str:
        send(mail, "gm", f"BEGIN GM {code} key {SECRET}\n" + "\n".join(lines) + "\nEND\n")
        run()
        answers = [m for m in mail.inbox("gm") if "GM commands" in str(m["Subject"])]
        assert answers, "the GM got no answer"
        return text_of(answers[-1])

    # -- game A runs with alice and bob; game B opens for sign-up ---------------------------------------------
    said = gm("CA-1", "NEWGAME CA-1 COURSE sprint SEED ca1 SETTLE 0", f"ADD PLAYER {at('alice')} Twonky",
              f"ADD PLAYER {at('bob')} Hammer", "START",
              "NEWGAME CB-1 COURSE sprint SEED cb1 SETTLE 0", "OPEN SEATS 2", "AUTOSTART ON", "PRESS WHITE")
    assert "NOT DONE" not in said, said
    (a_start,) = mail.inbox("alice")

    # -- dave lists the games and joins CB-1; the GM accepts -----------------------------------------------
    send(mail, "dave", "LIST")
    run()
    (listed,) = mail.inbox("dave")
    assert "CB-1  sprint: open for sign-up, 0 of 2 seats taken" in text_of(listed)
    assert "CA-1  sprint: running" in text_of(listed)
    send(mail, "dave", "JOIN CB-1 AS Spinner")
    run()
    assert "asked for a seat in CB-1 as Spinner" in text_of(mail.inbox("dave")[-1])
    assert any("Spinner asks to join" in s for s in subjects(mail.inbox("gm")))
    assert "Spinner (dave@" in gm("CB-1", "ACCEPT Spinner")
    (welcome,) = mail.inbox("dave")
    assert "you play Spinner" in str(welcome["Subject"])

    # -- alice joins CB-1 too (a name is offered); the game starts when full --------------------------------
    send(mail, "alice", "JOIN CB-1")
    run()
    offered = text_of(mail.inbox("alice")[-1])
    robot = re.search(r"asked for a seat in CB-1 as (\w+)", offered).group(1)
    assert "the game has started" in gm("CB-1", f"ACCEPT {robot}")
    with store.read() as s:
        assert g.get_game(s, "CB-1").status == "running"
    alice_mails = mail.inbox("alice")
    b_start = next(m for m in alice_mails if "CB-1" in str(m["Subject"]) and "turn 1" in text_of(m))
    dave_start = next(m for m in mail.inbox("dave") if "CB-1" in str(m["Subject"]))

    # -- alice resigns from CA-1 by replying to its turn mail; the GM is told ----------------------------------
    send(mail, "alice", "RESIGN CA-1\n", subject=f"Re: {a_start['Subject']}", to=str(a_start["Reply-To"]),
         in_reply_to=a_start["Message-ID"])
    run()
    assert "you resigned from CA-1" in text_of(mail.inbox("alice")[-1])
    assert any("Twonky resigned" in s for s in subjects(mail.inbox("gm")))
    now += timedelta(hours=1)
    gm("CA-1", "PROCESS")
    assert not any("CA-1" in s for s in subjects(mail.inbox("alice")))      # no more mail of CA-1 for her
    assert any("CA-1 turn 1 results" in s for s in subjects(mail.inbox("bob")))

    # -- alice moves CB-1 to erin@, who confirms -------------------------------------------------------------
    send(mail, "alice", "SET ADDRESS " + at("erin") + "\n", subject=f"Re: {b_start['Subject']}",
         to=str(b_start["Reply-To"]), in_reply_to=b_start["Message-ID"])
    run()
    assert f"a mail went to {at('erin')}" in text_of(mail.inbox("alice")[-1])
    (confirm,) = mail.inbox("erin")
    assert "[confirm c." in str(confirm["Subject"])
    with store.read() as s:
        assert g.get_player(s, g.get_game(s, "CB-1"), robot).email == at("alice")   # not before erin answers
    send(mail, "erin", "Yes, that is me.\n", subject=f"Re: {confirm['Subject']}", in_reply_to=confirm["Message-ID"])
    run()
    assert f"your address of record is now {at('erin')}" in text_of(mail.inbox("erin")[-1])
    with store.read() as s:
        assert g.get_player(s, g.get_game(s, "CB-1"), robot).email == at("erin")

    # -- dave sends press to everyone: erin gets it, signed Spinner, never with dave's address -----------------
    send(mail, "dave", "PRESS TO ALL\nGood luck, and mind the pits.\n", subject=f"Re: {dave_start['Subject']}",
         to=str(dave_start["Reply-To"]), in_reply_to=dave_start["Message-ID"])
    run()
    assert f"relayed to {robot}" in text_of(mail.inbox("dave")[-1])
    (press,) = [m for m in mail.inbox("erin") if "press from Spinner" in str(m["Subject"])]
    assert "Good luck, and mind the pits." in text_of(press) and at("dave") not in press.as_string()

    # -- heidi observes CB-1, confirms, gets the public results, then unsubscribes -------------------------------
    send(mail, "heidi", "OBSERVE CB-1")
    run()
    confirmation = next(m for m in mail.inbox("heidi") if "[confirm" in str(m["Subject"]))
    assert not any("results" in s for s in subjects(mail.inbox("heidi")))
    send(mail, "heidi", "", subject=f"Re: {confirmation['Subject']}", in_reply_to=confirmation["Message-ID"])
    run()
    now += timedelta(hours=1)
    gm("CB-1", "PROCESS")
    (results,) = [m for m in mail.inbox("heidi") if "CB-1 turn 1 results" in str(m["Subject"])]
    assert results["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert "BEGIN CB-1" not in text_of(results)
    target = re.match(r"<mailto:([^?]+)\?subject=(.+)>", str(results["List-Unsubscribe"]))
    assert target is not None
    send(mail, "heidi", "", subject=unquote(target.group(2)), to=target.group(1))
    run()
    now += timedelta(hours=1)
    gm("CB-1", "PROCESS")
    assert not any("results" in s for s in subjects(mail.inbox("heidi")))
    assert any("CB-1 turn 2 results" in s for s in subjects(mail.inbox("dave")))
