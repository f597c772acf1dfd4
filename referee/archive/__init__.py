"""The public archive: ``referee archive build`` writes every game's published turns as a static HTML site
(:func:`build_archive`, see :mod:`.build` for the layout)."""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .build import BuildReport, build_archive, published_turns

_LAZY = {"BuildReport": "build", "build_archive": "build", "published_turns": "build"}


def __getattr__(name: str) -> Any:
    # loaded on first use: ``referee`` registers the archive's command without importing the renderer
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f".{module}", __name__), name)


__all__ = ["BuildReport", "build_archive", "published_turns"]
