"""Words a player who never read the rules needs (issue 42, item 10): what "virtual" means in the start mail,
no registers asked of a robot powered down, and nobody still "playing" once the game is over."""

from __future__ import annotations

from datetime import timedelta

from referee import games as g
from referee.orders.replies import POWERED_DOWN
from referee.reports.final import enqueue_final_mails

from .helpers import SETTINGS, T0, address, new_game, outbox, parse, play_turn, text_of


def mail_of(store, user: str, kind: str) -> str:
    rows = [r for r in outbox(store, kind=kind) if r.recipients == [address(user)]]
    return text_of(parse(rows[-1].raw))


def test_the_start_mail_says_what_a_virtual_robot_is(store):
    new_game(store)   # every robot starts on start square 1, virtual
    text = " ".join(mail_of(store, "alice", "turn_start").split())
    assert "virtual" in text.split("robot colour square facing mode")[1].split("Virtual:")[0]
    assert "Virtual: robots sharing a start square begin as ghosts of themselves. A virtual robot neither pushes " \
           "nor is pushed" in text


def test_a_robot_powered_down_next_turn_is_not_asked_for_a_program(store):
    code = new_game(store)
    with store.write() as s:
        hand = list(g.open_turn(s, g.get_game(s, code)).hands["Twonky"])
        g.submit_program(s, code, "Twonky", hand[:5], power_down=True, actor="test", now=T0)
    play_turn(store, code, now=T0 + timedelta(hours=1))
    text = mail_of(store, "alice", "turn_report")
    assert POWERED_DOWN in text
    form = text.split("BEGIN ", 1)[1]
    assert not [line for line in form.split("\n") if line[:2] in ("1:", "2:", "3:", "4:", "5:")]
    assert "HOW TO ANSWER" not in text and "Program register" not in text
    assert "1:\n2:\n3:\n4:\n5:" in mail_of(store, "bob", "turn_report")   # Hammer plays on as usual


def test_after_the_game_ends_nobody_is_still_playing(store):
    code = new_game(store)
    play_turn(store, code, now=T0 + timedelta(hours=1))
    with store.write() as s:
        game = g.end_game(s, code, actor="test", now=T0 + timedelta(hours=2))
        enqueue_final_mails(s, SETTINGS, game, now=T0 + timedelta(hours=2))
    text = mail_of(store, "alice", "game_over")
    assert "playing" not in text.replace("Thank you for playing", "")
    assert "finished  <- you" in text
