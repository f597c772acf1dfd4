"""What the drawing keeps per board for as long as the board lives (floors, keys, PNGs, element looks).

It is held in the board's own ``cache`` (as the autopilot keeps its course maps), not in a
``WeakKeyDictionary`` keyed by the board: a compiled engine's ``Board`` takes no weak references.
"""

from __future__ import annotations

from typing import Any

from ..engine.board import Board


def board_memo(board: Board, name: str) -> dict[Any, Any]:
    """The drawing's dict called ``name`` kept on ``board`` (made empty the first time)."""
    key = f"render: {name}"
    found: dict[Any, Any] | None = board.cache.get(key)
    if found is None:
        found = board.cache[key] = {}
    return found


def forget(board: Board) -> None:
    """Drop everything the drawing keeps on ``board`` (what a new process starts without)."""
    for key in [k for k in board.cache if k.startswith("render: ")]:
        del board.cache[key]
