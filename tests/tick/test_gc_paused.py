"""A due turn is resolved with the cyclic garbage collector paused, and the collector is left as it was found."""

from __future__ import annotations

import gc

import pytest

from referee.common.gcpause import gc_paused


def test_the_collector_is_paused_for_the_turn_and_running_again_after_it():
    assert gc.isenabled()
    with gc_paused():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_a_turn_that_fails_still_leaves_the_collector_running():
    with pytest.raises(RuntimeError), gc_paused():
        raise RuntimeError("the turn failed")
    assert gc.isenabled()


def test_a_collector_someone_else_paused_stays_paused():
    gc.disable()
    try:
        with gc_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    finally:
        gc.enable()
