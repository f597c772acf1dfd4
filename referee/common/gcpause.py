"""Pausing the cyclic garbage collector over a burst of short-lived objects (a turn, an autopilot search)."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def gc_paused() -> Iterator[None]:
    """No cyclic garbage collection while the block runs.

    A turn (resolved, drawn, queued) or an autopilot search makes many objects: nearly all are freed as soon as
    they are dropped, and a search keeps thousands of turn states alive until it ends. Collections started in the
    middle walk them all again and again (a few ms a turn; about a third of a search's CPU). Paused, the
    collector runs after the block instead, over what is left then (measured in docs/scaling.md and
    ``benchmarks/strength_autopilot.py``)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()
