"""The jinja2 templates of the report (``templates/``, or ``$REFEREE_TEMPLATES`` first): the environment,
and the report and a player's section written out as text and as HTML."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

import jinja2
from jinja2.filters import do_wordwrap
from markupsafe import Markup

from ..common.textsafe import BIDI, strip_bidi
from .programs import programs_text
from .report_types import PrivateSection, TurnReport
from .textgrid import WIDTH, text_table


def template_dirs() -> list[Path]:
    """``$REFEREE_TEMPLATES`` (os.pathsep-separated) first, then the shipped templates."""
    dirs = [Path(p) for p in os.environ.get("REFEREE_TEMPLATES", "").split(os.pathsep) if p]
    return dirs + _shipped()


@lru_cache(maxsize=1)
def _shipped() -> list[Path]:
    """The shipped templates: in the installed package, else beside it in a checkout (looked up once)."""
    here = Path(__file__).resolve().parent.parent
    for candidate in (here / "_data" / "templates", here.parent / "templates"):
        if candidate.is_dir():
            return [candidate]
    return []


@lru_cache(maxsize=8)
def _environment(dirs: tuple[Path, ...]) -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader([str(d) for d in dirs]),
        autoescape=lambda name: bool(name and name.endswith(".html")),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        auto_reload=False,  # a template is compiled once per process, not looked up on disk at each mail
    )
    env.filters["text_table"] = text_table
    env.filters["programs_text"] = programs_text
    env.filters["wordwrap"] = _wordwrap
    env.finalize = _no_bidi
    return env


@jinja2.pass_environment
def _wordwrap(environment: jinja2.Environment, s: Any, width: int = 79, break_long_words: bool = True,
              wrapstring: str | None = None, break_on_hyphens: bool = True) -> str:
    """jinja2's ``wordwrap``, each text wrapped once (the same paragraphs come in every player's mail)."""
    if type(s) is not str:
        return do_wordwrap(environment, s, width, break_long_words, wrapstring, break_on_hyphens)
    return _wrapped(environment, s, width, break_long_words, wrapstring, break_on_hyphens)


@lru_cache(maxsize=256)
def _wrapped(environment: jinja2.Environment, s: str, width: int, break_long_words: bool, wrapstring: str | None,
             break_on_hyphens: bool) -> str:
    return do_wordwrap(environment, s, width, break_long_words, wrapstring, break_on_hyphens)


#: any bidi control (a quick look first: almost no value holds one, and taking them out costs more; an ASCII
#: value, known at once, holds none)
_ANY_BIDI = re.compile("[" + "".join(sorted(BIDI)) + "]")


def _no_bidi(value: Any) -> Any:
    """Every value a template writes, without bidi controls (a name cannot turn the page's text around)."""
    if not isinstance(value, str) or value.isascii() or not _ANY_BIDI.search(value):
        return value
    if isinstance(value, Markup):
        return Markup(strip_bidi(str(value)))
    return strip_bidi(value)


def environment() -> jinja2.Environment:
    return _environment(tuple(template_dirs()))


def render_template(name: str, **context: Any) -> str:
    return environment().get_template(name).render(**context)


def report_text(report: TurnReport, image_files: Mapping[str, str] | None = None, width: int = WIDTH) -> str:
    """The report as plain text; ``image_files`` names the attached picture of each image key."""
    return render_template("report.txt", report=report, image_files=dict(image_files or {}), width=width)


def report_html(report: TurnReport, image_urls: Mapping[str, str], gif_url: str | None = None,
                legend_url: str | None = None) -> str:
    """The report as an HTML fragment; ``image_urls`` maps image keys to ``cid:`` (or any) URLs; the key to
    the pictures (``legend_url``) stands beside the first picture."""
    return render_template("report.html", report=report, image_urls=dict(image_urls), gif_url=gif_url,
                           legend_url=legend_url)


def private_text(section: PrivateSection) -> str:
    return render_template("private.txt", private=section)


def private_html(section: PrivateSection) -> str:
    return render_template("private.html", private=section)
