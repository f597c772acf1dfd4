"""The autopilot: a program for a robot found by searching its hand (pure: no I/O, no clock).

:func:`plan_program` tries every distinct program of a hand through the engine's stepping API and
keeps the best by :mod:`.score`; :mod:`.course` holds the distance maps the score measures with.
Missing players, the demo's scripted players and (later) previews and hints use it.
"""

from .against import plan_against_others, predict_programs
from .course import CourseMap, course_map
from .score import Score, score_robot
from .search import Plan, plan_program

__all__ = ["CourseMap", "Plan", "Score", "course_map", "plan_against_others", "plan_program", "predict_programs",
           "score_robot"]
