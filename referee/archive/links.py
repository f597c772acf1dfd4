"""Web addresses of archive pages, for the mails that link to them (setting ``archive_url``)."""

from __future__ import annotations

from ..common.config import Settings


def _base(settings: Settings) -> str | None:
    url = (settings.archive_url or "").strip()
    return url if url.endswith("/") or not url else url + "/"


def game_url(settings: Settings, code: str) -> str | None:
    """The game's page (standings, every turn), or None without an ``archive_url``."""
    from .build import game_dir_name

    base = _base(settings)
    return f"{base}{game_dir_name(code)}/index.html" if base else None


def turn_url(settings: Settings, code: str, turn: int) -> str | None:
    """One turn's page, or None without an ``archive_url``."""
    from .build import game_dir_name, turn_page_name

    base = _base(settings)
    return f"{base}{game_dir_name(code)}/{turn_page_name(turn)}" if base else None
