"""Who sent a mail is read once, as the mail standard and DMARC read it: the address in angle brackets,
whatever the display name says. The intake, the GM check, loop checks and limits all use that reading."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.mailparse.senders import limit_key, sender_address

from .bombs import nested_comments_from
from .helpers import GM, GM_SECRET, address, incoming, mail, new_game, outbox
from .stored import deliver, quiet  # noqa: F401 (a fixture)

READINGS = [
    ("gm@example.test <evil@attacker.example>", "evil@attacker.example"),
    ('"gm@example.test" <evil@attacker.example>', "evil@attacker.example"),
    ("Alice (at home) <Alice@Example.TEST>", "alice@example.test"),
    ('"alice"@example.test', "alice@example.test"),
    ("alice@example.test (Alice)", "alice@example.test"),
    ("Doe, John <john@example.test>", "john@example.test"),
    ("friends: alice@example.test;", "alice@example.test"),
    ("<@relay.example:alice@example.test>", "alice@example.test"),
    ("alice@example.test, bob@example.test", None),      # two senders: no sender
    ("<alice@example.test> <bob@example.test>", None),
    ("alice@example.test\r\nBcc: bob@example.test", None),  # a header fragment
    ("<<alice@example.test>>", None),
    ("(unclosed alice@example.test", None),
    ("", None),
    ("no address at all", None),
]


@pytest.mark.parametrize(("header", "address_read"), READINGS)
def test_the_from_header_is_read_as_the_standard_reads_it(header, address_read):
    assert sender_address(header) == address_read


def test_a_from_with_2000_nested_comments_is_read_in_linear_time_without_recursion():
    header = nested_comments_from(1000).split(b"\r\n")[0].decode()[len("From: "):]
    assert sender_address(header) == "alice@example.test"
    assert sender_address("(" * 20_000 + ")" * 20_000 + " a@b.example") == "a@b.example"


def test_limits_count_one_mailbox_under_one_key():
    keys = {limit_key(a) for a in ['"alice"@Example.test', "alice+x@example.test", "ALICE@example.test",
                                   "Alice " + "A" * 2000 + " <alice@example.test>"]}
    assert keys == {"alice@example.test"}


atoms = st.text(st.sampled_from("abcXYZ019!#$%&'*+/=?^_`{|}~-"), min_size=1, max_size=6)


@given(local=st.lists(atoms, min_size=1, max_size=3), domain=st.lists(st.sampled_from(["a", "b1", "x-y"]),
       min_size=1, max_size=3), name=st.text(st.sampled_from("ab Z09 .\"<>,;:()@\\"), max_size=12))
def test_any_display_name_never_changes_the_address_in_angle_brackets(local, domain, name):
    addr = ".".join(local) + "@" + ".".join(domain)
    quoted = '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'
    assert sender_address(f"{quoted} <{addr}>") == addr.lower()
    assert sender_address(addr) == addr.lower()


@given(st.text(max_size=300))
def test_the_reader_never_raises(text):
    found = sender_address(text)
    assert found is None or "@" in found


def test_a_look_alike_gm_is_not_the_gm(store, quiet):  # noqa: F811
    forged = mail(f"{GM} <evil@attacker.example>", f"BEGIN GM key {GM_SECRET}\nNEWGAME RR-9 COURSE sprint\nEND\n")
    report = deliver(store, quiet, forged)
    assert report.outcomes == {"ignored": 1}
    (row,) = incoming(store)
    assert row.from_addr == "evil@attacker.example"
    assert "evil@attacker.example" in row.reason and "not a game master" in row.reason
    assert outbox(store) == []


def test_a_look_alike_player_gets_no_answer_about_the_game_and_no_orders(store, quiet):  # noqa: F811
    code = new_game(store)
    report = deliver(store, quiet, mail(f"{address('alice')} <mallory@attacker.example>", "STATUS\n"))
    assert report.outcomes == {"ignored": 1}
    # only the note every stranger gets, to the real address, and nothing of the game in it
    (note,) = outbox(store)
    assert (note.kind, note.recipients) == ("stranger", ["mallory@attacker.example"])
    assert code not in note.raw.decode() and "Twonky" not in note.raw.decode()
