"""Floods of mail never turn the referee into a mail cannon: 200 mails of each shape below (ten times the
hourly limit; ``REFEREE_TEST_FLOOD=1000`` gives the long run of issue 21, 1,000 of each), and the answers
counted. Every kind of answer is limited per address (read as the standard reads it: no display name, quotes
or +tag escape it) and per sender; forgeries in a player's name are counted apart from her own mistakes; a
player's accepted orders are always answered, and her own mails over the limits are answered together in one
digest an hour (issue 30)."""

from __future__ import annotations

import os
from datetime import timedelta

import pytest

from referee import games as g
from referee.games.tokens import reply_address
from referee.store.types import utcnow

from .helpers import GM, address, block, hand, incoming, mail, new_game, outbox, player, program_lines, text_of
from .stored import deliver, quiet  # noqa: F401 (a fixture)

#: mails of each shape; the answers allowed do not grow with it (at most 20 an hour per address and per sender)
FLOOD = int(os.environ.get("REFEREE_TEST_FLOOD") or 200)
ALICE = address("alice")


def answers_to(store, who: str) -> int:
    return sum(who in m.recipients for m in outbox(store))


def flood(store, settings, make) -> None:
    deliver(store, settings, *[make(i) for i in range(FLOOD)])
    assert len(incoming(store)) == FLOOD


SHAPES = {
    "HELP from her address": lambda i: mail(ALICE, "HELP\n"),
    "STATUS from her address": lambda i: mail(ALICE, "STATUS\n"),
    "HELP under a 2,000-character display name": lambda i: mail(f'"{"A" * 2000}{i}" <{ALICE}>', "HELP\n"),
    "HELP from a quoted local part": lambda i: mail(f'"alice"@{ALICE.split("@")[1]}', "HELP\n"),
    "HELP from upper case and a comment": lambda i: mail(f"ALICE@EXAMPLE.TEST (try {i})", "HELP\n"),
    "gibberish (errors)": lambda i: mail(ALICE, f"gibberish {i}\n"),
}


@pytest.mark.parametrize("dialect", ["sqlite"], indirect=True)
@pytest.mark.parametrize("shape", list(SHAPES))
def test_a_flood_from_one_mailbox_gets_at_most_the_hourly_answers(store, quiet, shape):  # noqa: F811
    new_game(store)
    flood(store, quiet, SHAPES[shape])
    assert 1 <= answers_to(store, ALICE) <= quiet.answers_per_hour + 1   # + her hour's digest
    digests = [m for m in outbox(store) if m.kind == "digest"]
    assert len(digests) <= 1


def test_a_flood_of_forgeries_in_her_name_mails_her_nothing_and_the_gm_hears_once(store, quiet):  # noqa: F811
    """Issue 41: a mail judged forged is never answered to the address it names; each is recorded."""
    new_game(store)
    flood(store, quiet, lambda i: mail(ALICE, "STATUS\n", headers={"Return-Path": "<bulk@attacker.example>"}))
    assert [m for m in outbox(store) if ALICE in m.recipients] == []
    assert answers_to(store, GM) == 1
    assert all(r.outcome == "rejected" and "looks forged" in r.reason for r in incoming(store))


@pytest.mark.parametrize("dialect", ["sqlite"], indirect=True)
def test_a_flood_of_gm_blocks_with_a_wrong_key_gets_at_most_the_hourly_answers(store, quiet):  # noqa: F811
    flood(store, quiet, lambda i: mail(GM, f"BEGIN GM key guess{i}\nPAUSE RR-1\nEND\n"))
    assert 1 <= answers_to(store, GM) <= quiet.answers_per_hour
    assert {m.outcome for m in incoming(store)} == {"rejected"}


@pytest.mark.parametrize("dialect", ["sqlite"], indirect=True)
def test_a_key_holder_forging_a_third_party_makes_no_echo_to_it(store, quiet):  # noqa: F811
    code = new_game(store)
    cards = hand(store, code, "Twonky")

    def forged(i: int) -> bytes:   # a new program each time, so none is a repeat
        return mail("victim@elsewhere.example", block(store, code, "Twonky", program_lines(cards[i % 4:i % 4 + 5])))

    flood(store, quiet, forged)
    assert answers_to(store, "victim@elsewhere.example") == 0
    assert answers_to(store, ALICE) <= quiet.answers_per_hour


def test_her_own_mistakes_are_answered_even_after_forgeries_and_she_hears_when_answers_stop(store, quiet):  # noqa: F811
    """Issue 21.3: three forgeries in her name, two real mistakes, then her good orders: all answered."""
    code = new_game(store)
    now = utcnow()
    forged = [mail(ALICE, "gibberish\n", headers={"Return-Path": "<x@attacker.example>"}) for _ in range(3)]
    mistakes = [mail(ALICE, f"gibberish {i}\n") for i in range(2)]
    deliver(store, quiet, *forged, *mistakes, now=now)
    good = mail(ALICE, block(store, code, "Twonky", program_lines(hand(store, code, "Twonky")[:5])))
    deliver(store, quiet, good, now=now + timedelta(minutes=1))
    texts = [text_of(m.raw) for m in outbox(store) if ALICE in m.recipients]
    assert sum("A mail in your name" in t for t in texts) == 0   # forgeries are never answered (issue 41)
    assert sum("could not be used" in t for t in texts) == 2
    assert "Orders accepted" in texts[-1]
    # more mistakes: five are answered, the sixth and seventh in one digest an hour later; the GM is told once
    deliver(store, quiet, *[mail(ALICE, f"oops {i}\n") for i in range(7)], now=now + timedelta(minutes=2))
    mails = [m for m in outbox(store) if ALICE in m.recipients]
    assert sum(m.kind == "rejection" and "could not be used" in text_of(m.raw) for m in mails) \
        == quiet.error_replies_per_hour
    (digest,) = [m for m in mails if m.kind == "digest"]
    assert "line 1: oops 5" in text_of(digest.raw) and "line 1: oops 6" in text_of(digest.raw)
    assert digest.next_attempt_at.replace(tzinfo=None) >= (now + timedelta(minutes=61)).replace(tzinfo=None)
    assert answers_to(store, GM) == 1


def test_accepted_orders_are_answered_whatever_the_limits(store, quiet):  # noqa: F811
    code = new_game(store)
    cards = hand(store, code, "Twonky")
    now = utcnow()
    deliver(store, quiet, *[mail(ALICE, "STATUS\n") for _ in range(quiet.answers_per_hour + 5)], now=now)
    deliver(store, quiet, mail(ALICE, block(store, code, "Twonky", program_lines(cards[:5]))),
            now=now + timedelta(minutes=1))
    assert "Orders accepted" in text_of(outbox(store)[-1].raw)


def test_a_stale_orders_answer_is_never_held_back(store, quiet):  # noqa: F811
    code = new_game(store)
    now = utcnow()
    stale = block(store, code, "Twonky", program_lines(hand(store, code, "Twonky")[:5]))
    with store.write() as s:
        g.resolve_turn(s, code, fill=g.random_fill, actor="test")
    deliver(store, quiet, *[mail(ALICE, f"gibberish {i}\n") for i in range(10)], now=now)
    deliver(store, quiet, mail(ALICE, stale), now=now + timedelta(minutes=1))
    assert "stale" in text_of(outbox(store)[-1].raw)


def test_a_reply_token_used_from_another_address_answers_the_player_only_without_the_prose(store, quiet):  # noqa: F811
    """Issue 23.2: a relay through the token address."""
    code = new_game(store)
    cards = hand(store, code, "Twonky")[:5]
    with store.read() as s:
        token = reply_address(quiet, g.get_game(s, code), player(store, code, "Twonky"), 1)
    prose = "Buy cheap watches at http://spam.example now"
    deliver(store, quiet, mail("victim@elsewhere.example", f"{prose}\n" + "\n".join(program_lines(cards)) + "\n",
                               to=token))
    assert answers_to(store, "victim@elsewhere.example") == 0
    (copy,) = outbox(store)
    assert copy.recipients == [ALICE]
    assert "victim@elsewhere.example carrying your key" in text_of(copy.raw)
    assert "watches" not in text_of(copy.raw)
