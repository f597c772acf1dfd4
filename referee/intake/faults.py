"""Fault injection for the crash tests: the one place that reads ``REFEREE_INTAKE_FAULT``.

The intake code calls :func:`fault_point` at the moments where a crash matters (between taking a
mail from the server, storing it, committing, moving it and marking it moved). Normally that does
nothing. With the environment variable set to ``NAME`` or ``NAME:N``, the process kills itself with
SIGKILL (no cleanup, no ``finally``, like a power cut) the N-th time (default 1) it reaches point
``NAME``. The points (see :data:`POINTS`)::

    REFEREE_INTAKE_FAULT=stored:2 referee poll     # dies right after the second batch is committed

The variable is read once, at the first call. Never set it outside tests.
"""

from __future__ import annotations

import os
import signal

ENV = "REFEREE_INTAKE_FAULT"

#: where the poller and the Maildir reader can be stopped, in the order a mail meets them
POINTS = (
    "connected",   # logged in, mailbox selected, nothing read yet
    "fetched",     # a batch fetched from the server, nothing stored
    "storing",     # inside the store transaction, after each mail added (before the commit)
    "stored",      # the batch committed, not yet moved on the server
    "moved",       # the batch moved (or flagged) on the server, not yet marked moved in the store
    "marked",      # the batch marked moved
)

#: where GM mail processing can be stopped (not in :data:`POINTS`: the poller never meets it)
GM_POINTS = (
    "gm-carried-out",   # a GM mail's commands carried out, its answer and outcome not yet recorded or committed
)

_armed: tuple[str, int] | None = None
_read = False
_count = 0


def _arm() -> tuple[str, int] | None:
    value = os.environ.get(ENV, "").strip()
    if not value:
        return None
    name, _, nth = value.partition(":")
    if name not in POINTS + GM_POINTS:  # a point no code meets would never fire: say so at once
        raise ValueError(f"{ENV}={value!r}: no such point (points: {', '.join(POINTS + GM_POINTS)})")
    return name, int(nth) if nth.isdigit() else 1


def fault_point(name: str) -> None:
    """Die here (SIGKILL) if the environment asks for a crash at this point; else do nothing."""
    global _armed, _read, _count
    if not _read:
        _armed, _read = _arm(), True
    if _armed is None or _armed[0] != name:
        return
    _count += 1
    if _count >= _armed[1]:
        os.kill(os.getpid(), signal.SIGKILL)
