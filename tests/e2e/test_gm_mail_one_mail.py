"""One GM mail with SET, ORDERS and PROCESS, through the real IMAP and SMTP servers: each player receives one
mail, the turn's results, whose "New since your last mail" block tells what the game master changed. A GM mail
with only a SET still sends the players its notice as a mail of its own."""

from __future__ import annotations

from datetime import timedelta

from referee import games as g
from tests.e2e.test_game_by_mail import GAME, SECRET, T0, Mailer, at, text_of, tick_ok


def gm_mail(mail: Mailer, settings, store, when, *lines: str) -> None:
    mail.send("gm", f"BEGIN GM {GAME} key {SECRET}\n" + "\n".join(lines) + "\nEND\n", subject="commands")
    tick_ok(settings, store, when)
    answers = [m for m in mail.inbox("gm") if "GM commands" in str(m["Subject"])]
    assert [str(m["Subject"]) for m in answers] == ["Your GM commands: accepted"], [text_of(m) for m in answers]


def news(text: str) -> str:
    """The "New since your last mail" block, on one line."""
    if "New since your last mail" not in text:
        return ""
    return " ".join(text.split("New since your last mail:\n")[1].split("\n\n")[0].split())


def test_set_orders_and_process_in_one_gm_mail_reach_each_player_as_one_turn_mail(settings, store, dovecot,
                                                                                   smtp_server):
    mail = Mailer(dovecot, smtp_server)
    gm_mail(mail, settings, store, T0, f"NEWGAME {GAME} COURSE sprint SETTLE 0 SEED fold",
            f"ADD PLAYER {at('alice')} Twonky", f"ADD PLAYER {at('bob')} Hammer", "START")
    assert len(mail.inbox("alice")) == 1 and len(mail.inbox("bob")) == 1   # the game's first mail
    with store.read() as s:
        hand = list(g.open_turn(s, g.get_game(s, GAME)).hands["Twonky"])

    gm_mail(mail, settings, store, T0 + timedelta(hours=1),
            "SET Twonky DAMAGE 2", f"ORDERS Twonky {', '.join(hand[:5])}", "PROCESS")
    alice, bob = mail.inbox("alice"), mail.inbox("bob")
    assert [str(m["Subject"]) for m in alice] == [f"{GAME} turn 1 results, your cards for turn 2"]
    assert [str(m["Subject"]) for m in bob] == [f"{GAME} turn 1 results, your cards for turn 2"]
    told = news(text_of(alice[0]))
    assert "- Twonky: damage 2 (HP 8)" in told
    assert f"- your program for turn 1 was entered by the game master: {', '.join(hand[:5])}" in told
    assert "- Twonky: damage 2 (HP 8)" in news(text_of(bob[0]))

    gm_mail(mail, settings, store, T0 + timedelta(hours=2), "SET Hammer LIVES 2")
    for user in ("alice", "bob"):
        assert [str(m["Subject"]) for m in mail.inbox(user)] == [f"{GAME}: Hammer corrected"]
