"""A player who left her seat (issue 41, item 1): she resigned, her robot went to another player, or she was
ejected. Whatever she sends about the robot afterwards (a reply to her old turn mail with or without its
order form, her old key on a BEGIN line, from her own address or another), she is answered once in words
of their own, with no key, no form and no reply address of the seat, and nothing is taken for the seat."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from referee import games as g
from referee.games import states

from .helpers import GM, GM_SECRET, PLAYERS, active_program, address, hand, incoming, mail, outbox, player, text_of
from .stored import deliver, quiet  # noqa: F401  (the fixture)

T0 = datetime(2026, 11, 20, 9, 0, tzinfo=UTC)


def announced_game(store, settings, code: str) -> str:
    """A started game with alice (Twonky), bob (Hammer) and carol (Zoom), whose turn mails went out."""
    with store.write() as s:
        game = g.create_game(s, course="sprint", code=code, seed="seats", now=T0, actor="test", gm_address=GM)
        for robot, user in PLAYERS.items():
            g.add_player(s, game, email=address(user), robot=robot, name=user.title(), actor="test", now=T0)
        g.start_and_announce(s, settings, game, actor="test", now=T0)
    return code


def said(answer) -> str:
    """An answer's text after its marker line."""
    text = text_of(answer.raw)
    return text.split("\n\n", 1)[1] if text.startswith("[referee answer") else text


def turn_mail_to(store, who: str):
    (first,) = [m for m in outbox(store, kind="turn_start") if m.recipients == [who]]
    return first


def gm_says(store, settings, code: str, *lines: str, now: datetime) -> None:
    deliver(store, settings, mail(GM, f"BEGIN GM {code} key {GM_SECRET}\n" + "\n".join(lines) + "\nEND\n"), now=now)


def resign_bob(store, settings, code: str, now: datetime) -> None:
    bob = player(store, code, "Hammer")
    deliver(store, settings, mail(address("bob"), f"BEGIN {code} Hammer key {bob.secret}\nRESIGN {code}\nEND"),
            now=now)


def mails_to(store, who: str, after: int) -> list:
    return [m for m in outbox(store) if m.recipients == [who] and m.id > after]


def last_id(store) -> int:
    rows = outbox(store)
    return rows[-1].id if rows else 0


def no_key_of_the_seat(store, code: str, robot: str, texts: list[bytes]) -> None:
    seat = player(store, code, robot)
    for raw in texts:
        assert seat.secret.encode() not in raw
        assert b"BEGIN " + code.encode() not in raw   # no order form


@pytest.mark.parametrize("policy", ["OPEN", "AUTOPILOT"])
def test_a_resigned_player_replying_to_her_old_turn_mail_is_told_she_resigned_and_nothing_is_taken(
        store, quiet, policy):  # noqa: F811
    code = announced_game(store, quiet, f"RS-{policy[0]}")
    gm_says(store, quiet, code, f"ON RESIGN {policy}", now=T0)
    old_mail = turn_mail_to(store, address("bob"))
    old_key = player(store, code, "Hammer").secret
    resign_bob(store, quiet, code, T0 + timedelta(minutes=5))
    cards = hand(store, code, "Hammer")
    before = last_id(store)

    # a plain reply, "1, 2, 3, 4, 5", to her old turn mail, from her own address
    deliver(store, quiet, mail(address("bob"), "1, 2, 3, 4, 5", subject=f"Re: {old_mail.subject}",
                               headers={"In-Reply-To": old_mail.message_id}), now=T0 + timedelta(minutes=10))
    (answer,) = mails_to(store, address("bob"), before)
    text = said(answer)
    assert text.startswith(f"You resigned from {code} on Fri 20 Nov 2026, 09:05 UTC; nothing taken.")
    assert "nothing taken" in answer.subject
    no_key_of_the_seat(store, code, "Hammer", [answer.raw])
    assert active_program(store, code, "Hammer") is None
    assert incoming(store)[-1].outcome == "rejected"

    # the same with the order form filled in and her old key, from another address of hers
    before = last_id(store)
    form = f"BEGIN {code} Hammer turn 1 key {old_key}\n" + "\n".join(
        f"{i}: {c}" for i, c in enumerate(cards[:5], start=1)) + "\nEND\n"
    deliver(store, quiet, mail(address("bobby"), form, subject=f"Re: {old_mail.subject}",
                               headers={"In-Reply-To": old_mail.message_id}), now=T0 + timedelta(minutes=11))
    (answer,) = mails_to(store, address("bob"), before)   # answered where she played from, not to a new address
    assert mails_to(store, address("bobby"), before) == []
    assert said(answer).startswith(f"You resigned from {code}")
    no_key_of_the_seat(store, code, "Hammer", [answer.raw])
    assert active_program(store, code, "Hammer") is None

    # her old key alone, no thread, from yet another address
    before = last_id(store)
    deliver(store, quiet, mail(address("robert"), form, subject="my orders"), now=T0 + timedelta(minutes=12))
    (answer,) = mails_to(store, address("bob"), before)
    assert said(answer).startswith(f"You resigned from {code}")
    assert active_program(store, code, "Hammer") is None
    with store.read() as s:
        seat = g.get_player(s, g.get_game(s, code), "Hammer")
        assert states.seat_state(s, seat) == "resigned"
        assert not states.may(states.SEAT, "resigned", "orders")


def test_the_seats_key_is_never_mailed_to_its_old_player(store, quiet):  # noqa: F811
    code = announced_game(store, quiet, "RS-K")
    old_mail = turn_mail_to(store, address("bob"))
    resign_bob(store, quiet, code, T0 + timedelta(minutes=5))
    # wrong orders, a HELP and a STATUS: each would be answered with a form carrying the key to a player
    for minute, body in enumerate(["FWD9, FWD9", "HELP", "STATUS", "hello?"], start=10):
        deliver(store, quiet, mail(address("bob"), body, subject=f"Re: {old_mail.subject}",
                                   headers={"In-Reply-To": old_mail.message_id}), now=T0 + timedelta(minutes=minute))
    gm_says(store, quiet, code, "PROCESS", now=T0 + timedelta(minutes=20))
    after = [m.raw for m in outbox(store)
             if address("bob") in m.recipients and m.created_at > T0 + timedelta(minutes=6)]
    assert len(after) == 4   # one answer each, nothing else (no turn report)
    no_key_of_the_seat(store, code, "Hammer", after)


def test_a_replaced_player_gets_words_of_her_own_and_her_orders_are_not_taken(store, quiet):  # noqa: F811
    code = announced_game(store, quiet, "RS-R")
    old_mail = turn_mail_to(store, address("bob"))
    gm_says(store, quiet, code, f"REPLACE Hammer WITH {address('dave')}", now=T0 + timedelta(minutes=5))
    before = last_id(store)
    deliver(store, quiet, mail(address("bob"), "1, 2, 3, 4, 5", subject=f"Re: {old_mail.subject}",
                               headers={"In-Reply-To": old_mail.message_id}), now=T0 + timedelta(minutes=10))
    (answer,) = mails_to(store, address("bob"), before)
    assert said(answer).startswith(f"Hammer in {code} went to another player on Fri 20 Nov 2026, 09:05 UTC")
    no_key_of_the_seat(store, code, "Hammer", [answer.raw])
    assert active_program(store, code, "Hammer") is None
    # a mail that names no robot at all, from her address: the same words, not a stranger's note
    before = last_id(store)
    deliver(store, quiet, mail(address("bob"), "what happened?"), now=T0 + timedelta(minutes=70))
    (answer,) = mails_to(store, address("bob"), before)
    assert "went to another player" in said(answer)


def test_an_ejected_player_is_told_so_and_nothing_is_taken(store, quiet):  # noqa: F811
    code = announced_game(store, quiet, "RS-E")
    bob = player(store, code, "Hammer")
    gm_says(store, quiet, code, "EJECT Hammer", now=T0 + timedelta(minutes=5))
    before = last_id(store)
    cards = hand(store, code, "Hammer")
    form = f"BEGIN {code} Hammer turn 1 key {bob.secret}\n" + "\n".join(
        f"{i}: {c}" for i, c in enumerate(cards[:5], start=1)) + "\nEND\n"
    deliver(store, quiet, mail(address("bob"), form), now=T0 + timedelta(minutes=10))
    (answer,) = mails_to(store, address("bob"), before)
    assert said(answer).startswith(f"The game master took you out of {code} on Fri 20 Nov 2026, 09:05 UTC")
    assert active_program(store, code, "Hammer") is None
    no_key_of_the_seat(store, code, "Hammer", [answer.raw])


def test_a_seat_resigned_twice_after_a_takeover_keeps_both_players_apart(store, quiet):  # noqa: F811
    """Bob resigns, Dave takes the seat over (the GM accepts his JOIN), then Dave resigns too: each is told of
    their own resignation, and the seat's key reaches neither."""
    code = announced_game(store, quiet, "RS-T")
    resign_bob(store, quiet, code, T0 + timedelta(minutes=5))
    deliver(store, quiet, mail(address("dave"), f"JOIN {code}"), now=T0 + timedelta(minutes=6))
    gm_says(store, quiet, code, "ACCEPT Hammer", now=T0 + timedelta(minutes=7))
    assert player(store, code, "Hammer").email == address("dave")
    dave = player(store, code, "Hammer")
    deliver(store, quiet, mail(address("dave"), f"BEGIN {code} Hammer key {dave.secret}\nRESIGN {code}\nEND"),
            now=T0 + timedelta(minutes=8))
    before = last_id(store)
    deliver(store, quiet, mail(address("dave"), f"BEGIN {code} Hammer turn 1 key {dave.secret}\n1, 2, 3, 4, 5\nEND"),
            now=T0 + timedelta(minutes=9))
    (answer,) = mails_to(store, address("dave"), before)
    assert said(answer).startswith(f"You resigned from {code} on Fri 20 Nov 2026, 09:08 UTC")
    deliver(store, quiet, mail(address("bob"), "1, 2, 3, 4, 5", subject=f"Re: {code}"), now=T0 + timedelta(minutes=70))
    (answer,) = mails_to(store, address("bob"), before)
    assert said(answer).startswith(f"You resigned from {code} on Fri 20 Nov 2026, 09:05 UTC")
    no_key_of_the_seat(store, code, "Hammer", [m.raw for m in mails_to(store, address("bob"), 0)
                                                  if m.created_at > T0 + timedelta(minutes=5)])
