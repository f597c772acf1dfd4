"""What the registries of element kinds and option cards share: every module of their package imported, so
that a new element or card is its module and one registration line, ``register(of.MODULE.NAME)``."""

from __future__ import annotations

import pkgutil
from collections.abc import Iterable
from importlib import import_module
from types import ModuleType, SimpleNamespace


def modules_of(package: str, path: Iterable[str]) -> SimpleNamespace:
    """Every module of ``package`` (its ``__name__`` and ``__path__``), imported in name order (so the
    order they declare timing steps, wordings and effects in never depends on the registration lines),
    as attributes of the namespace returned."""
    found = sorted(info.name for info in pkgutil.iter_modules(list(path)) if not info.name.startswith("_"))
    modules: dict[str, ModuleType] = {name: import_module(f"{package}.{name}") for name in found}
    return SimpleNamespace(**modules)
