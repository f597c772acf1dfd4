"""The jinja2 environment of the report mails and the archive: the shipped ``templates/`` (and any
``$REFEREE_TEMPLATES`` override, searched first) plus the templates of these packages."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

import jinja2

from ..render.templates import environment

HERE = Path(__file__).resolve().parent
PACKAGE_TEMPLATES = (HERE / "templates", HERE.parent / "archive" / "templates")


@lru_cache(maxsize=8)
def _overlay(base: jinja2.Environment) -> jinja2.Environment:
    loaders: list[jinja2.BaseLoader] = [base.loader] if base.loader is not None else []
    loaders.append(jinja2.FileSystemLoader([str(d) for d in PACKAGE_TEMPLATES]))
    return base.overlay(loader=jinja2.ChoiceLoader(loaders))


def render(name: str, **context: Any) -> str:
    """Render template ``name`` (``.html`` ones autoescaped), with the render package's filters."""
    return _overlay(environment()).get_template(name).render(**context)
