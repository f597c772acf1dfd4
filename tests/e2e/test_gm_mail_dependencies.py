"""One GM mail whose ADD PLAYER fails, through the real IMAP server: the START after it is not run (the
game would start without that player, who could never be added), the answer says so line by line, and
its subject does not say "accepted". The GM's next mail seats the player and starts the game."""

from __future__ import annotations

from referee import games as g
from tests.e2e.test_game_by_mail import GAME, SECRET, T0, Mailer, at, text_of, tick_ok


def gm_mail(mail: Mailer, settings, store, *lines: str):
    mail.send("gm", f"BEGIN GM {GAME} key {SECRET}\n" + "\n".join(lines) + "\nEND\n", subject="commands")
    tick_ok(settings, store, T0)
    answers = [m for m in mail.inbox("gm") if "GM commands" in str(m["Subject"])]
    assert len(answers) == 1, [str(m["Subject"]) for m in answers]
    return str(answers[0]["Subject"]), text_of(answers[0])


def test_a_start_after_a_failed_add_player_is_not_run_and_the_answer_says_why(settings, store, dovecot,
                                                                                smtp_server):
    mail = Mailer(dovecot, smtp_server)
    subject, answer = gm_mail(mail, settings, store,
                              f"NEWGAME {GAME} COURSE duel SETTLE 0 SEED deps",   # line 2
                              f"ADD PLAYER {at('alice')} Twonky",                  # line 3
                              "ADD PLAYER bob-at-nowhere Hammer",                  # line 4: no address
                              "START",                                              # line 5
                              "STATUS",                                             # line 6
                              "PAUZE")                                              # line 7: not read
    assert "accepted" not in subject
    assert subject == "Your GM commands: 2 of 5 commands not done, 1 line not read"
    assert "line 5: START\n    not done: ADD PLAYER on line 4 failed" in answer
    assert "line 4: ADD PLAYER bob-at-nowhere Hammer\n    NOT DONE:" in answer
    assert "did you mean PAUSE?" in answer
    with store.read() as s:
        game = g.get_game(s, GAME)
        assert game.status == "forming" and [p.robot for p in game.players] == ["Twonky"]

    subject, answer = gm_mail(mail, settings, store, f"ADD PLAYER {at('bob')} Hammer", "START")
    assert subject == "Your GM commands: accepted", answer
    with store.read() as s:
        game = g.get_game(s, GAME)
        assert game.status == "running" and sorted(p.robot for p in game.players) == ["Hammer", "Twonky"]


def test_a_failed_newgame_stops_the_lines_that_would_act_on_another_game(settings, store, dovecot, smtp_server):
    mail = Mailer(dovecot, smtp_server)
    subject, answer = gm_mail(mail, settings, store, f"NEWGAME {GAME} COURSE duel SETTLE 0 SEED deps")
    assert subject == "Your GM commands: accepted"
    subject, answer = gm_mail(mail, settings, store,
                              "NEWGAME E2E-2 COURSE nowhere-such",     # fails: no such course
                              f"ADD PLAYER {at('carol')} Zoom",        # would land in E2E-1
                              "GAME E2E-1",
                              "STATUS")
    assert "line 3: ADD PLAYER" in answer and "not done: NEWGAME on line 2 failed" in answer
    assert "line 5: STATUS\n    done:" in answer
    assert subject == "Your GM commands: 2 of 4 commands not done"
    with store.read() as s:
        assert g.get_game(s, GAME).players == []


def test_numbers_out_of_range_in_one_gm_mail_are_refused_and_the_rest_is_done(settings, store, dovecot,
                                                                              smtp_server):
    from referee.store.mail_models import IncomingMail

    mail = Mailer(dovecot, smtp_server)
    gm_mail(mail, settings, store, f"NEWGAME {GAME} COURSE duel SETTLE 0 SEED ranges",
            f"ADD PLAYER {at('alice')} Twonky", f"ADD PLAYER {at('bob')} Hammer", "START")
    subject, answer = gm_mail(mail, settings, store,
                              "EXTEND 9999999d",
                              "SET DEADLINE +" + "9" * 30,
                              "PUBLISH " + "9" * 30,
                              "SET DEADLINE 9999-12-31 23:59",
                              "SET Twonky LIVES " + "9" * 30,
                              f"REPLACE Twonky WITH {settings.referee_address}",
                              "EXTEND 1d",
                              "PAUSE",
                              "RESUME")
    assert subject == "Your GM commands: 2 of 5 commands not done, 4 lines not read", answer
    assert "line 8: EXTEND 1d\n    done:" in answer and "line 10: RESUME\n    done: resumed" in answer
    with store.read() as s:
        assert "error" not in {m.outcome for m in s.query(IncomingMail)}
