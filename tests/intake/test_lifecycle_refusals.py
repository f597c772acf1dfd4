"""Every entry point asks the lifecycles (issue 41): a GM command, a player's command, press or an
observer's mail that the seat's, game's, turn's or observer's table refuses is answered NOT DONE with the
table's words and changes nothing; nothing crashes."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from referee import games as g
from referee.games import states

from .helpers import GM, GM_SECRET, address, incoming, mail, new_game, outbox, player, text_of
from .stored import deliver, quiet  # noqa: F401  (the fixture)

T0 = datetime(2026, 11, 20, 9, 0, tzinfo=UTC)


def gm(store, settings, code: str, *lines: str, now: datetime = T0) -> str:
    """The GM mails ``lines``; the answer's text."""
    deliver(store, settings, mail(GM, f"BEGIN GM {code} key {GM_SECRET}\n" + "\n".join(lines) + "\nEND\n"), now=now)
    return text_of(outbox(store, kind="gm_answer")[-1].raw)


def answer_to(store, who: str) -> str:
    return text_of([m for m in outbox(store) if m.recipients == [who]][-1].raw)


def game_status(store, code: str) -> str:
    with store.read() as s:
        return states.game_state(g.get_game(s, code))


def test_gm_commands_the_game_machine_refuses_are_not_done_and_change_nothing(store, quiet):  # noqa: F811
    code = new_game(store, now=T0, gm_address=GM)
    said = gm(store, quiet, code, "PAUSE", "PAUSE", "START")
    assert f"NOT DONE: {code} is paused: only a running game can be paused" in said
    assert f"NOT DONE: {code} is already paused" in said
    assert game_status(store, code) == "paused"
    said = gm(store, quiet, code, "RESUME", "RESUME", now=T0 + timedelta(minutes=1))
    assert f"NOT DONE: {code} is running, not paused" in said
    said = gm(store, quiet, code, "END GAME", "END GAME", "PAUSE", now=T0 + timedelta(minutes=2))
    assert f"NOT DONE: {code} is finished already" in said
    assert f"{code} is finished: only a running game can be paused" in said
    assert game_status(store, code) == "finished"
    assert all(m.outcome != "error" for m in incoming(store))


def test_the_seat_machine_refuses_to_eject_or_replace_a_robot_ejected_already(store, quiet):  # noqa: F811
    code = new_game(store, now=T0, gm_address=GM)
    said = gm(store, quiet, code, "EJECT Hammer", "EJECT Hammer", f"REPLACE Hammer WITH {address('dave')}")
    assert said.count("NOT DONE: Hammer was ejected already") == 2
    assert player(store, code, "Hammer").email == address("bob")
    with store.read() as s:
        assert states.seat_state(s, g.get_player(s, g.get_game(s, code), "Hammer")) == "ejected"


def test_an_ejected_player_can_no_longer_press_and_her_old_key_names_nothing(store, quiet):  # noqa: F811
    code = new_game(store, now=T0, gm_address=GM)
    old_key = player(store, code, "Hammer").secret
    gm(store, quiet, code, "EJECT Hammer")
    before = len(outbox(store))
    deliver(store, quiet, mail(address("bob"), f"BEGIN {code} Hammer key {old_key}\nPRESS TO ALL\nstill here\nEND"),
            now=T0 + timedelta(minutes=1))
    assert outbox(store, kind="press") == []
    new = outbox(store)[before:]
    assert [m.recipients for m in new] == [[address("bob")]]   # one answer, to her
    assert "The game master took you out of" in text_of(new[0].raw)
    assert player(store, code, "Hammer").secret.encode() not in new[0].raw


def test_a_resigned_player_cannot_resign_again_nor_send_press(store, quiet):  # noqa: F811
    code = new_game(store, now=T0, gm_address=GM)
    bob = player(store, code, "Hammer")
    deliver(store, quiet, mail(address("bob"), f"BEGIN {code} Hammer key {bob.secret}\nRESIGN {code}\nEND"), now=T0)
    assert f"you resigned from {code}" in answer_to(store, address("bob"))
    deliver(store, quiet, mail(address("bob"), f"BEGIN {code} Hammer key {bob.secret}\nPRESS TO ALL\nhello\nEND"),
            now=T0 + timedelta(minutes=1))
    assert outbox(store, kind="press") == []
    assert f"You resigned from {code} on Fri 20 Nov 2026, 09:00 UTC; nothing taken." in answer_to(store, address("bob"))


def test_unobserve_before_confirming_ends_the_request_and_the_late_confirmation_does_nothing(
        store, quiet):  # noqa: F811
    code = new_game(store, now=T0, gm_address=GM)
    deliver(store, quiet, mail(address("olga"), f"OBSERVE {code}"), now=T0)
    (confirm,) = outbox(store, kind="confirm")
    token = re.search(r"\[confirm (c\.\d+\.[a-z2-7]+)\]", confirm.subject).group(1)
    with store.read() as s:
        assert states.observer_state(s, g.get_game(s, code), address("olga"), now=T0) == "pending"
    deliver(store, quiet, mail(address("olga"), f"UNOBSERVE {code}"), now=T0 + timedelta(minutes=1))
    assert "NOT DONE" not in answer_to(store, address("olga"))
    deliver(store, quiet, mail(address("olga"), f"CONFIRM {token}"), now=T0 + timedelta(minutes=2))
    assert "NOT DONE: this confirmation has expired" in answer_to(store, address("olga"))
    with store.read() as s:
        game = g.get_game(s, code)
        assert states.observer_state(s, game, address("olga"), now=T0 + timedelta(minutes=3)) == "unsubscribed"
    deliver(store, quiet, mail(address("olga"), f"UNOBSERVE {code}"), now=T0 + timedelta(minutes=4))
    assert f"NOT DONE: you do not observe {code}" in answer_to(store, address("olga"))
