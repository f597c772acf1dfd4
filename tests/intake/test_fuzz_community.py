"""A short sampled run of the project's mail fuzzer (``benchmarks/fuzz_intake.py``) with the community's seeds
(issue 41): commands anyone may send, a player's own with values beyond their ranges, observers' "unsubscribe",
strangers' "I want to join", each as is or broken by the fuzzer's mutations, through the real intake. No mail
may end ``error`` or stay unprocessed. The long run is the benchmark (see benchmarks/README.md)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from benchmarks.fuzz_intake import community_mails, good_mails, make_mail
from tests.intake.helpers import incoming, new_game
from tests.intake.stored import deliver, quiet  # noqa: F401  (the fixture)

MAILS = 160


@pytest.mark.parametrize("dialect", ["sqlite"], indirect=True)
def test_a_sampled_fuzz_run_with_community_seeds_ends_no_mail_in_error(store, quiet):  # noqa: F811
    rng = random.Random(41)
    code = new_game(store)
    seeds = good_mails(store, code, rng) + community_mails(store, quiet, code, rng)
    assert len(seeds) > 150
    for _round in range(0, MAILS, 40):
        deliver(store, quiet, *(make_mail(seeds, rng)[1] for _ in range(40)))
    outcomes = Counter(m.outcome for m in incoming(store))
    assert outcomes["error"] == 0 and outcomes["new"] == 0, outcomes
    assert sum(outcomes.values()) >= MAILS * 0.9   # copies of one Message-ID are stored once
    assert outcomes["accepted"] and outcomes["rejected"], outcomes   # commands were done, and refused
