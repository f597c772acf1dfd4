"""PBEM-element scenarios use the engine tests' harness (``tests/engine/scenarios.py``): ``play`` a small
board, robots and programs, then say what must hold."""

from __future__ import annotations

from typing import Any

import pytest

from ..engine.scenarios import play, robot, rows

__all__ = ["plateau", "play", "robot", "rows"]

@pytest.fixture
def plateau() -> list[dict[str, Any]]:
    """An 8x8 board whose rows 5-8 stand one level up, with a ramp at r4c2 climbing north."""
    return [*rows("level", 5, 8, height=1), {"kind": "ramp", "at": "r4c2", "dir": "N"}]
