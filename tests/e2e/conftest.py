"""End to end: a game played through real mail (Dovecot IMAP in, SMTP out) with the tick, the clock
moved by the test."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

BOARDS = Path(__file__).resolve().parent / "boards"


@pytest.fixture(autouse=True)
def e2e_boards() -> Iterator[None]:
    old = os.environ.get("REFEREE_BOARDS")
    os.environ["REFEREE_BOARDS"] = os.pathsep.join(p for p in (str(BOARDS), old) if p)
    yield
    if old is None:
        os.environ.pop("REFEREE_BOARDS", None)
    else:
        os.environ["REFEREE_BOARDS"] = old
