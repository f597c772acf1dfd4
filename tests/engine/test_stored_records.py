"""The record the store keeps of a turn (``result_columns``) is the same as the engine of commit fff57f3 made it.

Forty turns of eight robots on grand-prix, played under rules version 2 with programs drawn from each turn's
dealt hands (as ``benchmarks/bench_engine.py --stored`` plays them): each turn's stored record, as JSON, hashed.
``data/stored_records_fff57f3.json`` holds the hashes fff57f3 gave for the same turns (made by running
:func:`stored_digests` with that commit's tree on ``PYTHONPATH``); the whole 3,000-turn comparison is the
benchmark's ``--stored --against``.
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

GOLDEN = Path(__file__).parent / "data" / "stored_records_fff57f3.json"
NAMES = ("Twonky", "Hammer", "Zoom", "Spin", "Squash", "Trundle", "Hulk", "Bishop")


def stored_digests(turns: int) -> list[str]:
    """One hash per turn of its stored record (only APIs fff57f3 already had)."""
    from referee.boards import load_board
    from referee.engine import Robot, Rules, deal_turn, resolve_turn
    from referee.engine.geometry import N
    from referee.games.engine_io import result_columns

    board = load_board("grand-prix")
    rules = Rules().for_version(2) if hasattr(Rules, "for_version") else Rules()   # (fff57f3 played version 2)
    starts = [board.starts[n] for n in sorted(board.starts)]

    def fresh() -> list[Any]:
        return [Robot(NAMES[i], starts[i], N, archive=starts[i]) for i in range(8)]

    rng = random.Random(1)
    robots = fresh()
    out = []
    for turn in range(turns):
        dealt = deal_turn(robots, f"bench:{turn}")
        programs = {}
        for r in robots:
            if r.name in dealt.hands:
                hand = list(dealt.hands[r.name])
                rng.shuffle(hand)
                locked = dealt.locked.get(r.name, {})
                programs[r.name] = [locked[reg] if reg in locked else hand.pop() for reg in range(1, 6)]
        result = resolve_turn(board, robots, programs, seed=f"bench:{turn}", undealt=dealt.undealt, rules=rules)
        record = json.dumps(result_columns(result), default=str)
        out.append(hashlib.blake2b(record.encode(), digest_size=12).hexdigest())
        robots = result.robots
        if result.winner or all(r.out_of_game for r in robots):
            robots = fresh()
        for r in robots:
            if r.out_of_game:
                r.lives, r.pos, r.damage = 3, r.archive, 2
    return out


def test_forty_stored_turns_are_recorded_as_fff57f3_recorded_them() -> None:
    expected = json.loads(GOLDEN.read_text())
    mine = stored_digests(len(expected))
    differ = [turn for turn, (a, b) in enumerate(zip(mine, expected, strict=True)) if a != b]
    assert differ == [], f"the stored records of turns {differ} differ from fff57f3's"
