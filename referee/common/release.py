"""Which release of the referee is running, as each stored turn records it (``Turn.engine_version``).

The version number is the package's (``referee.__version__``, which pyproject.toml reads, so the two never
differ). Run from a git checkout, the commit is added (``0.1.0+g1a2b3c4d``, ``.dirty`` with uncommitted
changes): two checkouts of one version number are then told apart, as the replay of an old turn needs.
An installed wheel has no checkout: its version number alone.
"""

from __future__ import annotations

import subprocess
from functools import lru_cache
from pathlib import Path

from .. import __version__

#: the longest a release string may be (the column's width)
MAX_LENGTH = 32


@lru_cache(maxsize=1)
def release() -> str:
    """The running release: the version number, plus the git commit when run from a checkout."""
    root = Path(__file__).resolve().parents[2]
    if not (root / ".git").exists() or not (root / "pyproject.toml").is_file():
        return __version__
    try:
        done = subprocess.run(["git", "-C", str(root), "describe", "--always", "--dirty=.dirty", "--abbrev=10",
                               "--match=NO-TAGS"], capture_output=True, text=True, timeout=5,
                              stdin=subprocess.DEVNULL)
    except (OSError, subprocess.SubprocessError):
        return __version__
    commit = done.stdout.strip()
    if done.returncode != 0 or not commit:
        return __version__
    return f"{__version__}+g{commit}"[:MAX_LENGTH]
