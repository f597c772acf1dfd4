"""A value as a person writes it on a command line or in a GM mail (a house rule's, a robot's DATA field):
``yes``/``no``, ``on``/``off`` and ``true``/``false`` as booleans, whole numbers as ints, else the word itself.
``referee game new --rule edge=fence`` and the GM's ``NEWGAME ... RULES lives=2`` read it alike."""

from __future__ import annotations

import re
from typing import Any


def typed_word(raw: str) -> Any:
    """``raw`` as a boolean, a whole number, or the word itself."""
    low = raw.lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    if re.fullmatch(r"-?\d+", raw):
        return int(raw)
    return raw


def setting(text: str) -> tuple[str, Any] | None:
    """``NAME=VALUE`` as (name, typed value), hyphens in the name read as underscores; None when it is not
    written so."""
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        return None
    return key.strip().replace("-", "_"), typed_word(value.strip())
