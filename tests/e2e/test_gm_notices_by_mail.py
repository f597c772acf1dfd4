"""What one GM mail of corrections gives the players, through the real IMAP and SMTP servers (issue 42, items 7
and 8): one notice each, one line per robot changed, a short subject; the hand a correction dealt again,
with its order form, which a player fills in and sends back; an option card the GM gives in turn 1 explained
to its player in one line. The results mail later tells the changes in a few lines after "How to answer", and
never invites orders for the turn it reports."""

from __future__ import annotations

from datetime import timedelta

from tests.e2e.test_game_by_mail import GAME, SECRET, T0, Mailer, at, orders, text_of, tick_ok, turn_form

TEN = ["SET Twonky DAMAGE 1", "SET Twonky DAMAGE 2", "SET Hammer DAMAGE 2", "SET Zoom LIVES 2", "SET Twonky LIVES 2",
       "SET Hammer FACING E", "SET Zoom DAMAGE 1", "SET Hammer LIVES 2", "SET Twonky FACING S",
       "SET Zoom OPTIONS +Brakes"]


def gm_mail(mail: Mailer, settings, store, when, *lines: str) -> None:
    mail.send("gm", f"BEGIN GM {GAME} key {SECRET}\n" + "\n".join(lines) + "\nEND\n", subject="commands")
    tick_ok(settings, store, when)
    answers = [m for m in mail.inbox("gm") if "GM commands" in str(m["Subject"])]
    assert [str(m["Subject"]) for m in answers] == ["Your GM commands: accepted"], [text_of(m) for m in answers]


def lines_of(text: str) -> list[str]:
    """The notice's change lines (its first paragraph's bullets), each on one line."""
    first = text.split("\n\n")[0]
    return [" ".join(b.split()) for b in first.split("\n- ")[1:]]


def test_ten_corrections_in_one_gm_mail_give_each_player_one_short_notice_and_the_new_hand(settings, store, dovecot,
                                                                                            smtp_server):
    mail = Mailer(dovecot, smtp_server)
    gm_mail(mail, settings, store, T0, f"NEWGAME {GAME} COURSE sprint SETTLE 0 SEED notices",
            f"ADD PLAYER {at('alice')} Twonky", f"ADD PLAYER {at('bob')} Hammer", f"ADD PLAYER {at('carol')} Zoom",
            "START")
    for user in ("alice", "bob", "carol"):
        assert len(mail.inbox(user)) == 1   # the game's first mail, 9 cards each

    gm_mail(mail, settings, store, T0 + timedelta(hours=1), *TEN)
    got = {user: mail.inbox(user) for user in ("alice", "bob", "carol")}
    assert all(len(mails) == 1 for mails in got.values()), {u: [str(m["Subject"]) for m in ms] for u, ms in got.items()}
    subjects = {user: str(mails[0]["Subject"]) for user, mails in got.items()}
    assert subjects["bob"] == f"{GAME}: 3 changes by the game master"
    assert subjects["carol"] == f"{GAME}: 4 changes by the game master"   # and her new card's line
    assert all(len(s) < 78 for s in subjects.values())

    bob = text_of(got["bob"][0])
    assert lines_of(bob) == ["Twonky: facing S, damage 2 (HP 8), lives 2", "Hammer: facing E, damage 2 (HP 8), lives 2",
                             "Zoom: damage 1 (HP 9), lives 2, option cards +Brakes"]
    # the cards the correction promised come in the same mail, with the form to send them back
    assert ("Your hand for turn 1 was dealt again (7 cards); orders sent for this turn before the correction no "
            "longer count.") in " ".join(bob.split())
    begin, hand, notice = turn_form(got["bob"])
    assert begin.startswith(f"BEGIN {GAME} Hammer turn 1 key ") and len(hand) == 7
    carol = text_of(got["carol"][0])
    assert ("- your new option card Brakes: a Move 1 may move nothing. Order: BRAKES <registers>, e.g. BRAKES 2."
            in carol.replace("\n  ", " "))
    assert "your new option card" not in text_of(got["alice"][0])   # explained to its holder only
    assert "# Brakes: BRAKES 2" in carol   # her form as the whole mail left her robot: with the card's order

    mail.send("bob", orders(begin, hand[:5]), subject=f"Re: {subjects['bob']}", in_reply_to=str(notice["Message-ID"]))
    tick_ok(settings, store, T0 + timedelta(hours=2))
    assert [str(m["Subject"]) for m in mail.inbox("bob")] == [f"{GAME} Hammer turn 1: orders accepted"]

    gm_mail(mail, settings, store, T0 + timedelta(hours=3), "PROCESS")
    results = text_of(mail.inbox("bob")[-1])
    news = results.split("New since your last mail:\n")[1].split("\n\n")[0]
    assert [" ".join(line.split()) for line in news.split("\n- ")] == [
        "- Twonky: facing S, damage 2 (HP 8), lives 2", "Hammer: facing E, damage 2 (HP 8), lives 2",
        "Zoom: damage 1 (HP 9), lives 2, option cards +Brakes"]
    assert results.index("HOW TO ANSWER") < results.index("New since your last mail")
    assert "You may still send" not in results and "dealt again" not in results
    carol_results = text_of(mail.inbox("carol")[-1])
    assert "New option card Brakes" not in carol_results   # explained once, when it came
