"""Files the referee keeps between processes to save work (drawn floors, measured course maps): where they
live, and writing one whole or not at all (a temporary file beside it, renamed over it), so a reader in
another process never sees half a file."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def cache_dir(kind: str) -> Path:
    """The folder of kept files of one kind: ``$REFEREE_CACHE_DIR/<kind>``, else the XDG cache folder's
    ``referee/<kind>`` (``~/.cache/referee/<kind>``)."""
    base = os.environ.get("REFEREE_CACHE_DIR")
    if base:
        return Path(base) / kind
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "referee" / kind


def write_whole(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` (making its folder), replacing it in one step. Raises :class:`OSError`."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=path.suffix)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
