"""Community mail in everyday words, through the real IMAP and SMTP servers (issue 41): a stranger who writes
"I want to join" is shown LIST and JOIN first; a player's GAMES between "Hi," and "Thanks, Alice" is done
and nothing is reported unreadable; an observer who writes "Bitte abmelden" is unsubscribed with one answer,
and the next results no longer come to her."""

from __future__ import annotations

import contextlib
import subprocess
from datetime import timedelta

from referee import games as g
from referee.games.observers import start_observing
from tests.e2e.test_community_by_mail import send, subjects
from tests.e2e.test_game_by_mail import SECRET, T0, Mailer, at, text_of, tick_ok


def test_join_words_a_greeted_command_and_an_unsubscribe_in_german_by_mail(settings, store, dovecot, smtp_server):
    for user in ("dave", "heidi"):   # the e2e fixture empties only the referee's, the GM's and the players'
        with contextlib.suppress(subprocess.CalledProcessError):
            dovecot.empty(user, "INBOX")
    mail = Mailer(dovecot, smtp_server)
    now = T0

    def run() -> None:
        tick_ok(settings, store, now)

    send(mail, "gm", f"BEGIN GM CW-1 key {SECRET}\nNEWGAME CW-1 COURSE sprint SEED cw1 SETTLE 0\n"
                     f"ADD PLAYER {at('alice')} Twonky\nADD PLAYER {at('bob')} Hammer\nSTART\n"
                     "NEWGAME CW-2 COURSE sprint SEED cw2\nOPEN SEATS 2\nEND\n")
    run()
    with store.write() as s:
        start_observing(s, settings, g.get_game(s, "CW-1"), at("heidi"), now=now)

    # -- a stranger asks to play, in her own words ---------------------------------------------------------------
    send(mail, "dave", "Hello,\n\nI want to join a game. How does this work?\n\nDave\n", subject="RoboRally?")
    run()
    (note,) = mail.inbox("dave")
    text = text_of(note)
    assert "how to join" in str(note["Subject"])
    assert text.index("LIST") < text.index("JOIN RR-7 AS") < text.index("game master")
    assert "CW-2  sprint: open for sign-up, 0 of 2 seats taken" in text

    # -- alice greets and signs off around GAMES ------------------------------------------------------------------
    (start,) = [m for m in mail.inbox("alice") if "CW-1" in str(m["Subject"])]
    send(mail, "alice", "Hi,\n\nGAMES\n\nThanks,\nAlice\n", subject=f"Re: {start['Subject']}",
         to=str(start["Reply-To"]), in_reply_to=start["Message-ID"])
    run()
    said = text_of(mail.inbox("alice")[-1])
    assert "Twonky in CW-1 (running, turn 1" in said and "could not be read" not in said

    # -- heidi, an observer, writes in German; one answer, no more results --------------------------------------------
    send(mail, "heidi", "Hallo,\n\nbitte abmelden.\n\nViele Grüße\nHeidi\n", subject="Abmelden")
    run()
    (answer,) = mail.inbox("heidi")
    assert "you no longer observe CW-1" in text_of(answer)
    now += timedelta(hours=1)
    send(mail, "gm", f"BEGIN GM CW-1 key {SECRET}\nPROCESS\nEND\n")
    run()
    assert any("CW-1 turn 1 results" in s for s in subjects(mail.inbox("bob")))
    assert mail.inbox("heidi") == []
