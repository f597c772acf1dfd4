"""Pictures of a course kept on disk between processes (issue 46): its floor and its key.

A course's floor (every element, the grid, the labels) and the key to its pictures depend only on the course
and on how the renderer draws; a process keeps them once drawn (:func:`.frames.floor`, :func:`.legend.legend_png`),
but each ``referee tick`` from cron is a new process, and drawing them again is most of what its first turn
costs (the key alone: more than the rest of a sprint turn's pictures). So they are kept as PNG files, under a
name made of the course's content, the cell size, what it is and a digest of the drawing: the source files of
the renderer and the engine, Pillow's version and the fonts'. Any change to any of these gives new names, and
an old file is simply never read again; at most :data:`MAX_FILES` are kept (the oldest go first).

The directory is ``$REFEREE_CACHE_DIR/pictures``, else ``$XDG_CACHE_HOME/referee/pictures``, else
``~/.cache/referee/pictures``. A file that cannot be read or written is not an error: the picture is drawn
as before. Files are written atomically (a reader never sees half a file).
"""

from __future__ import annotations

import hashlib
import io
import json
import logging
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

import PIL
from PIL import Image

from ..common.cachefiles import cache_dir as kept_in
from ..common.cachefiles import write_whole
from ..engine import Board
from .board_memo import board_memo
from .fonts import BOLD, DEJAVU_DIR, REGULAR

log = logging.getLogger("referee.render.kept")

#: the packages whose source says how a course is drawn
DRAWN_BY = ("render", "engine")
#: at most this many pictures are kept (a floor and a key per course and cell size in use)
MAX_FILES = 64


def cache_dir() -> Path:
    return kept_in("pictures")


@lru_cache(maxsize=1)
def drawing_digest() -> str:
    """How the renderer draws, as a digest: its source files and the engine's (whose registry says how a kind
    without a painter looks and in which order kinds are drawn), Pillow's version, the fonts it uses."""
    h = hashlib.sha256(PIL.__version__.encode())
    package = Path(__file__).parent.parent
    for part in DRAWN_BY:
        for path in sorted((package / part).rglob("*.py")):
            h.update(str(path.relative_to(package)).encode() + b"\0" + path.read_bytes())
    for name in (REGULAR, BOLD):
        try:
            st = (DEJAVU_DIR / name).stat()
            h.update(f"{name}:{st.st_size}:{st.st_mtime_ns}".encode())
        except OSError:
            h.update(f"{name}:none".encode())
    return h.hexdigest()


def picture_key(board: Board, cell: int, what: str) -> str:
    content = json.dumps({"spec": board.spec, "cell": cell, "what": what, "drawing": drawing_digest()},
                         sort_keys=True, default=str)
    return hashlib.sha256(content.encode()).hexdigest()[:32]


def _path(board: Board, cell: int, what: str, directory: Path | None) -> Path:
    safe = "".join(c if c.isalnum() or c in "-_" else "_" for c in board.name.split(" ")[0])[:40] or "board"
    return (directory or cache_dir()) / f"{safe}-{what}-{cell}-{picture_key(board, cell, what)}.png"


def kept_png(board: Board, cell: int, what: str, make: Callable[[], bytes], directory: Path | None = None) -> bytes:
    """The PNG ``make`` makes of ``board`` (``what``: its name, e.g. ``key``): kept by the process as long as
    the board is, and on disk for the next process."""
    per_board = board_memo(board, "kept PNGs")
    data = per_board.get((cell, what))
    if data is not None:
        return data
    path = _path(board, cell, what, directory)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        pass
    except OSError as exc:
        log.warning("picture %s not read (%s); drawn again", path, exc)
    if data is None:
        data = make()
        _write(path, data)
    per_board[(cell, what)] = data
    return data


def kept_image(board: Board, cell: int, what: str, make: Callable[[], Image.Image],
               directory: Path | None = None) -> Image.Image:
    """The image ``make`` draws of ``board``, read back from its PNG when a process drew it before."""
    path = _path(board, cell, what, directory)
    try:
        with Image.open(path) as img:
            img.load()
            return img.copy() if img.mode == "RGB" else img.convert("RGB")
    except FileNotFoundError:
        pass
    except (OSError, ValueError) as exc:
        log.warning("picture %s not read (%s); drawn again", path, exc)
    image = make()
    buf = io.BytesIO()
    image.save(buf, format="PNG", compress_level=1)
    _write(path, buf.getvalue())
    return image


def _write(path: Path, data: bytes) -> None:
    try:
        write_whole(path, data)
        _prune(path.parent)
    except OSError as exc:
        log.info("picture not kept at %s (%s)", path, exc)  # no cache directory: drawn in each process


def _prune(directory: Path) -> None:
    """Keep the :data:`MAX_FILES` newest pictures."""
    files = sorted(directory.glob("*.png"), key=lambda p: p.stat().st_mtime_ns, reverse=True)
    for old in files[MAX_FILES:]:
        old.unlink(missing_ok=True)
