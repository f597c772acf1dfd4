"""``referee archive build``: write the public archive (a static HTML site)."""

from __future__ import annotations

from pathlib import Path

import click

from ..console.support import cli_settings as _settings
from ..console.support import open_store as _open_store
from ..console.support import store_errors as _errors


@click.group("archive")
def archive_group() -> None:
    """The public archive: every game's turns as static web pages."""


@archive_group.command("build")
@click.option("--out", "out", type=click.Path(file_okay=False, path_type=Path),
              help="Where to write the site (default: the archive_dir setting).")
@click.option("--game", "codes", multiple=True, help="Only this game's pages (repeatable); the index lists all.")
@click.option("--force", is_flag=True, help="Draw every turn again, changed or not.")
def archive_build(out: Path | None, codes: tuple[str, ...], force: bool) -> None:
    """Write or update the site: an index of games, a page per game and per turn, the pictures and GIFs.

    Only turns whose results were released to the players are shown; unchanged turns are not redrawn.
    A game that cannot be drawn (its course cannot be loaded) is skipped and named; the others are built,
    and the exit status is 1."""
    from .build import build_archive

    settings = _settings()
    target = out if out is not None else settings.path(settings.archive_dir)
    store = _open_store()
    try:
        with _errors():
            report = build_archive(store, target, games=list(codes) or None, force=force)
    except OSError as exc:
        raise click.ClickException(f"cannot write the archive in {target}: {exc}") from None
    finally:
        store.close()
    click.echo(report.summary())
    if report.skipped:
        raise SystemExit(1)
