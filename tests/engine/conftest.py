"""Fixtures shared by the engine's tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from referee.engine import KINDS
from referee.engine.hooks import EFFECTS


@pytest.fixture
def scratch() -> Iterator[list[str]]:
    """Names of kinds and effects a test registers; removed again afterwards."""
    names: list[str] = []
    yield names
    for name in names:
        KINDS.pop(name, None)
        EFFECTS.pop(name, None)
