"""The autopilot's course maps kept on disk, so a process does not measure a course again.

Building a :class:`~referee.autopilot.CourseMap` steps the engine once per square, facing and card type: about
a second for sprint and several for grand-prix, in every new process (each ``referee tick`` from cron is one).
The result depends only on the course's content and the rules the game plays (its rules version and house
rules), so it is stored under a name made of both (:func:`~referee.autopilot.course.course_key`): an edited
course or a new rules version gets a new file, and an old file is simply never read again.

The directory is ``$REFEREE_CACHE_DIR``, else ``$XDG_CACHE_HOME/referee``, else ``~/.cache/referee``
(``coursemaps/`` in it). A file that cannot be read or written is not an error: the map is built
as before. Files are plain JSON written atomically (a reader never sees half a file).
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

from ..autopilot.course import CourseMap, course_key, kept_maps, moves_from_data, moves_to_data
from ..common.cachefiles import cache_dir as kept_in
from ..common.cachefiles import write_whole
from ..engine import Board, Rules

log = logging.getLogger("referee.boards.coursemaps")

def cache_dir() -> Path:
    return kept_in("coursemaps")


def cached_course_map(board: Board, directory: Path | None = None, rules: Rules | None = None) -> CourseMap:
    """The board's course map under ``rules`` (the game's; this engine's by default): from the board's in-memory
    cache, else from disk, else built (and then written to disk for the next process)."""
    rules = rules or Rules()
    maps = kept_maps(board)
    found = maps.get(rules)
    if found is not None:
        return found
    directory = directory or cache_dir()
    path = directory / f"{_safe(board.name)}-{course_key(board, rules)}.json"
    course = _read(path, board, rules)
    if course is None:
        course = CourseMap(board, rules=rules)
        _write(path, course)
    maps[rules] = course
    return course


def _safe(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_" else "_" for c in name.split(" ")[0])[:40] or "board"


def _read(path: Path, board: Board, rules: Rules) -> CourseMap | None:
    try:
        data = json.loads(path.read_bytes())
        return CourseMap(board, moves=moves_from_data(data["moves"], board), rules=rules)
    except FileNotFoundError:
        return None
    except (OSError, ValueError, KeyError, TypeError) as exc:
        log.warning("course map %s not used (%s); measuring the course again", path, exc)
        return None


def _write(path: Path, course: CourseMap) -> None:
    try:
        write_whole(path, json.dumps({"board": course.board.name, "moves": moves_to_data(course.moves)},
                                     separators=(",", ":")).encode())
    except OSError as exc:
        log.info("course map not kept at %s (%s)", path, exc)  # no cache directory: measured each process
