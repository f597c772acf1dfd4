""""Did you mean ...?" for a mistyped name: GM keywords, robot fields, robot names, boards and courses."""

from __future__ import annotations

import difflib
from collections.abc import Iterable

#: how alike a word must be to a known one to be offered (difflib's ratio)
CUTOFF = 0.7


def closest(word: str, known: Iterable[str], *, cutoff: float = CUTOFF) -> str | None:
    """The known name most like ``word`` (any case), if one is alike enough."""
    names = list(known)
    by_key = {n.casefold(): n for n in names}
    found = difflib.get_close_matches(word.casefold(), list(by_key), n=1, cutoff=cutoff)
    return by_key[found[0]] if found else None


def did_you_mean(word: str, known: Iterable[str], *, cutoff: float = CUTOFF) -> str:
    """`` (did you mean X?)``, or nothing when no known name is close."""
    found = closest(word, known, cutoff=cutoff)
    return f" (did you mean {found}?)" if found else ""
