"""The score of a robot at the end of a turn: lower is better, compared as a tuple.

1. destroyed this turn (a life lost) is worst of all;
2. more flags touched is better (the next flag reached);
3. then fewer registers to the next flag along the course's real path (:mod:`.course`); a robot
   that has touched every flag has distance 0;
4. then less damage;
5. then an archive marker nearer the next flag (archive progress).
"""

from __future__ import annotations

from typing import NamedTuple

from ..engine import Robot
from .course import FAR, CourseMap


class Score(NamedTuple):
    lost: bool
    flags: int  # negated: more flags sort first
    distance: int
    damage: int
    archive: int


def score_robot(course: CourseMap, before: Robot, after: Robot) -> Score:
    """How good ``after`` (the robot at the end of the turn) is for a robot that was ``before``."""
    lost = after.destroyed or after.lives < before.lives or after.pos is None
    total = course.board.flag_count
    target = after.flags + 1
    if total and after.flags >= total:
        distance = archive = 0
    elif not total:
        distance = archive = FAR
    else:
        distance = course.distance(target, after.pos, after.facing)
        archive = course.best_distance(target, after.archive)
    return Score(lost, -after.flags, distance, after.damage, archive)
