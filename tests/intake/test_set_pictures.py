"""A player chooses the pictures her turn mails carry (issue 42): ``SET PICTURES ALL|STAGES|NONE``, with her
key, kept for her seat and answered with what was set; the next turn mail honours it, the others' do not
change.

Rulings cited (docs/rulings.md): 42.w1.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from referee import games as g
from referee.reports import enqueue_turn_mails

from .helpers import address, mail, new_game, outbox, parse, player, text_of
from .stored import deliver, quiet  # noqa: F401  (the fixture)

T0 = datetime(2026, 11, 20, 9, 0, tzinfo=UTC)


def answer_to(store, who: str) -> str:
    (last,) = [m for m in outbox(store, kind="community") if m.recipients == [who]][-1:]
    return text_of(last.raw)


def set_pictures(store, settings, code: str, robot: str, user: str, value: str, now: datetime) -> str:
    key = player(store, code, robot).secret
    deliver(store, settings, mail(address(user), f"BEGIN {code} {robot} key {key}\nSET PICTURES {value}\nEND"),
            now=now)
    return answer_to(store, address(user))


def turn_mail_parts(store, settings, code: str, now: datetime) -> dict[str, list[str]]:
    """Resolve the open turn and queue its mails: each recipient's content types of her turn mail."""
    with store.write() as s:
        turn = g.resolve_turn(s, code, fill=g.random_fill, actor="test", now=now)
        rows = enqueue_turn_mails(s, settings, turn.game, turn, now=now)
    return {m.recipients[0]: [p.get_content_type() for p in parse(m.raw).walk() if not p.is_multipart()]
            for m in rows}


def test_every_seat_starts_at_all_and_set_pictures_is_kept_for_the_seat_of_the_key(store, quiet):  # noqa: F811
    code = new_game(store, now=T0)
    assert player(store, code, "Twonky").pictures == "all"
    said = set_pictures(store, quiet, code, "Twonky", "alice", "stages", T0 + timedelta(minutes=1))
    assert f"pictures STAGES: Twonky's turn mails in {code} carry the pictures of the board, without the " \
           "animation" in " ".join(said.split())
    assert player(store, code, "Twonky").pictures == "stages"
    assert player(store, code, "Hammer").pictures == "all"
    said = set_pictures(store, quiet, code, "Hammer", "bob", "None", T0 + timedelta(minutes=2))
    assert "pictures NONE" in said and "text only" in said
    assert player(store, code, "Hammer").pictures == "none"


def test_a_value_set_pictures_does_not_take_is_answered_with_the_three_it_does(store, quiet):  # noqa: F811
    code = new_game(store, now=T0)
    said = set_pictures(store, quiet, code, "Twonky", "alice", "SOME", T0 + timedelta(minutes=1))
    assert "SET PICTURES ALL" in said and "SET PICTURES STAGES" in said and "SET PICTURES NONE" in said
    assert player(store, code, "Twonky").pictures == "all"


def test_set_pictures_needs_the_players_key(store, quiet):  # noqa: F811
    code = new_game(store, now=T0)
    deliver(store, quiet, mail(address("alice"), "SET PICTURES NONE"), now=T0)
    assert "NOT DONE: this command needs your key" in answer_to(store, address("alice"))
    assert player(store, code, "Twonky").pictures == "all"


def test_the_next_turn_mail_carries_what_each_seat_chose(store, quiet):  # noqa: F811
    code = new_game(store, now=T0)
    set_pictures(store, quiet, code, "Twonky", "alice", "NONE", T0 + timedelta(minutes=1))
    set_pictures(store, quiet, code, "Hammer", "bob", "STAGES", T0 + timedelta(minutes=2))
    parts = turn_mail_parts(store, quiet, code, T0 + timedelta(hours=1))
    assert parts[address("alice")] == ["text/plain", "text/html"]          # NONE: text only
    bob = parts[address("bob")]                                            # STAGES: the boards and the key
    assert "image/png" in bob and "image/gif" not in bob
    carol = parts[address("carol")]                                        # ALL, as before
    assert carol.count("image/gif") == 1 and carol.count("image/png") == bob.count("image/png")
