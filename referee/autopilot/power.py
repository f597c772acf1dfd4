"""When the autopilot powers a robot down: announced with this turn's program, for the next turn.

A powered-down robot plays no cards for a turn and repairs all its damage at the start of it. The
search scores damage only after distance, so a robot it plays keeps taking hits until its registers
fuse and its hand shrinks: on a long course that costs far more than the turn a power down costs.
The planner that plans against the others (:func:`~referee.autopilot.plan_against_others`) therefore
announces a power down when the robot it plans ends the turn with :data:`POWER_DOWN_AT` damage or more,
alive and still racing. Measured against the standing-still planner (which never powers down), on the
same seeds: see docs/autopilot.md.
"""

from __future__ import annotations

from ..engine import Robot
from .score import Score

#: the damage at the end of the turn from which the robot powers down next turn (measured on grand-prix,
#: 90 games each against the standing-still planner: 5 won 63, 6 won 64, 7 won 56; never: 46)
POWER_DOWN_AT = 6


def powers_down(after: Robot, score: Score, flag_count: int, at: int = POWER_DOWN_AT) -> bool:
    """Whether a robot that ends the turn as ``after`` (scored ``score``) should power down next turn:
    it has ``at`` damage or more, is on the board, lost no life and has not touched every flag."""
    return (after.pos is not None and not score.lost and after.damage >= at
            and not (flag_count and after.flags >= flag_count))
