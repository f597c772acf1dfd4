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


#: the wary score's weights, in halves of a register: a damage point below the first fused register costs
#: half a register (a card fewer next turn), one that fuses a register a register and a half
WARY_UNIT = 2
WARY_BELOW = 1
WARY_FUSED = 3
FIRST_FUSED = 5


def wary_damage(damage: int) -> int:
    """What ``damage`` costs in the wary score, in :data:`WARY_UNIT` parts of a register."""
    return WARY_BELOW * min(damage, FIRST_FUSED - 1) + WARY_FUSED * max(0, damage - FIRST_FUSED + 1)


def score_wary(course: CourseMap, before: Robot, after: Robot) -> Score:
    """:func:`score_robot` with the damage weighed against the distance: a program that takes
    two points of damage to come one register nearer is no better than one that stays back
    (being shot and pushed into lasers fuses registers, and a robot with fused registers is slow for
    turns). The distance term is ``WARY_UNIT * distance + wary_damage(damage)``: never below the distance, so
    the search's bound still holds."""
    score = score_robot(course, before, after)
    if score.lost or score.distance >= FAR:
        return score
    return score._replace(distance=WARY_UNIT * score.distance + wary_damage(after.damage))
