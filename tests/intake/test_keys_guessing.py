"""Guessing keys: a forged GM block is refused before it is read, new players get keys of 79 bits (old
keys keep working), and the GM hears when one robot's key is tried wrongly again and again."""

from __future__ import annotations

import referee.gm as gm
from referee import games as g
from referee.common.config import Settings
from referee.games import SECRET_LENGTH
from referee.gm import handle_gm_text

from .helpers import GM, address, block, hand, mail, new_game, outbox, player, program_lines, text_of
from .stored import deliver, quiet  # noqa: F401 (a fixture)


def test_a_huge_gm_block_with_a_wrong_key_is_refused_before_it_is_read(store, quiet: Settings,  # noqa: F811
                                                                         monkeypatch):
    body = "BEGIN GM RR-1 key guess\n" + "SET Twonky AT r5c4 FACING N DAMAGE 3\n" * 52_000 + "END\n"
    assert len(body) > 1_900_000
    parsed: list[int] = []
    real_parse = gm.parse_block
    monkeypatch.setattr(gm, "parse_block", lambda text: parsed.append(len(text)) or real_parse(text))
    answer = handle_gm_text(store, quiet, body, sender=GM, now=g.utcnow())
    assert not answer.accepted and "missing or wrong" in answer.reason
    assert parsed == [], "the block was read before the key was checked"
    handle_gm_text(store, quiet, f"BEGIN GM RR-1 key {quiet.gm_secret}\nHELP\nEND\n", sender=GM, now=g.utcnow())
    assert parsed, "with the right key the block is read (the spy sees it)"


def test_new_players_get_long_keys_and_an_old_short_key_still_works(store, quiet):  # noqa: F811
    code = new_game(store)
    assert len(player(store, code, "Twonky").secret) == SECRET_LENGTH == 16
    with store.write() as s:
        g.get_player(s, g.get_game(s, code), "Twonky").secret = "abcd2345"   # a key from before
    deliver(store, quiet, mail(address("alice"), block(store, code, "Twonky",
                                                       program_lines(hand(store, code, "Twonky")[:5]))))
    assert "Orders accepted" in text_of(outbox(store)[-1].raw)


def test_the_gm_hears_when_one_robots_key_is_guessed_again_and_again(store, quiet):  # noqa: F811
    code = new_game(store)
    cards = hand(store, code, "Twonky")[:5]
    guesses = [mail(address("alice"), block(store, code, "Twonky", program_lines(cards), key=f"guess{i}"))
               for i in range(8)]
    deliver(store, quiet, *guesses)
    told = [m for m in outbox(store) if m.recipients == [GM] and "wrong keys" in m.subject]
    assert len(told) == 1
    assert f"{code}: wrong keys for Twonky" == told[0].subject
    assert "5 mails in the last day carried a wrong key" in text_of(told[0].raw)
