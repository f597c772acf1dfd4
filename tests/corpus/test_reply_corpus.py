"""The reply corpus (issue 30): hundreds of replies as real clients write them, each with its outcome.

Every client in every language plays a game of its own: a mistake, a first program, then situations of
what is written x what is quoted (see :mod:`tests.corpus.situations`). Each must leave the right program
on file and get exactly one answer of the right kind (none for a GM block from a player).
"""

from __future__ import annotations

from collections import Counter

import pytest

from tests.corpus import situations as corpus
from tests.corpus.clients import CLIENTS, LANGS

#: the corpus in parts (a quarter of the clients each, every language, every kind of writing under every kind of
#: quote): each part is a test of its own, so the parts run side by side and none nears the time limit on a busy
#: machine; benchmarks/reply_corpus.py runs the whole corpus at once
PARTS = 4


@pytest.mark.parametrize("part", range(PARTS))
@pytest.mark.parametrize("dialect", ["sqlite"], indirect=True)
def test_every_reply_of_the_corpus_is_read_and_answered_as_a_player_expects(store, db_url, part):
    clients = CLIENTS[part::PARTS]
    results = corpus.run(store, corpus.settings_for(db_url), per_game=3, clients=clients)
    assert len(results) >= 300 // PARTS
    assert {r.client for r in results} == set(clients) and {r.lang for r in results} == {x.code for x in LANGS}
    assert {r.written for r in results} == set(corpus.WRITTEN)
    assert {r.quoted for r in results} == set(corpus.QUOTED)
    # every kind of writing is met under every kind of quote
    pairs = Counter((r.written, r.quoted) for r in results)
    assert all(pairs[(w, q)] for w in corpus.WRITTEN for q in corpus.QUOTED
               if w != "orders-in-form" or q == "turn"), pairs
    wrong = [f"{r.name}: want {r.answer} with {r.program}; got {r.got}" for r in results if not r.ok]
    assert not wrong, "\n".join(wrong)
