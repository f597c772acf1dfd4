"""Keys from mails: any shape of wrong key is a plain refusal (never a crash), the GM key is checked
before the GM block is read, new players get long keys, and the GM hears of a robot's key being guessed."""

from __future__ import annotations

import pytest

from referee.common.keys import same_key
from referee.gm import authorised

from .helpers import GM, GM_SECRET, address, block, hand, incoming, mail, new_game, outbox, program_lines, text_of
from .stored import deliver, hostile_settings, quiet  # noqa: F401 (a fixture)

ODD_KEYS = ["gëheim", "秘密", "\u202egm-secret-42", "gm-secret-42\u00ad", "x" * 5000, "ǅ", "\udcff"]


@pytest.mark.parametrize("key", ODD_KEYS)
def test_a_key_of_any_shape_compares_without_an_error(key):
    assert same_key(key, GM_SECRET) is False
    assert same_key(key, "abc", ignore_case=True) is False
    assert authorised(hostile_settings("sqlite://"), GM, key) == "the GM key on the BEGIN GM line is missing or wrong"


def test_the_right_keys_still_match():
    assert same_key(" gm-secret-42 ", GM_SECRET)
    assert same_key("AbCd2345", "abcd2345", ignore_case=True)
    assert not same_key("ABCD2345", "abcd2345")


def test_a_gm_block_with_a_non_ascii_key_is_refused_plainly(store, quiet):  # noqa: F811
    report = deliver(store, quiet, mail(GM, "BEGIN GM key gëheim\nNEWGAME RR-9 COURSE sprint\nEND\n"))
    assert report.outcomes == {"rejected": 1}
    (row,) = incoming(store)
    assert "missing or wrong" in row.reason
    (answer,) = outbox(store)
    assert answer.recipients == [GM] and "refused" in text_of(answer.raw)


def test_orders_with_a_non_ascii_key_are_refused_plainly(store, quiet):  # noqa: F811
    code = new_game(store)
    body = block(store, code, "Twonky", program_lines(hand(store, code, "Twonky")[:5]), key="kléé秘")
    report = deliver(store, quiet, mail(address("alice"), body))
    assert report.outcomes == {"rejected": 1}
    (answer,) = outbox(store)
    assert "not your key" in text_of(answer.raw)
