"""``referee db ...``: the database schema (create, upgrade, downgrade, show the revision)."""

from __future__ import annotations

import sys

import click

from .support import json_errors, open_store, store_errors


@click.group("db")
def db_group() -> None:
    """The database schema (SQLite by default, or PostgreSQL: set database_url)."""


@db_group.command("upgrade")
@click.argument("revision", default="head")
def db_upgrade(revision: str) -> None:
    """Bring the database to REVISION (default: the newest), creating it if it is empty."""
    _migrate("upgrade", revision)


@db_group.command("downgrade")
@click.argument("revision")
@click.option("--yes", "-y", is_flag=True, help="Do not ask before going back to 'base' (every table dropped).")
def db_downgrade(revision: str, yes: bool) -> None:
    """Take the database back to REVISION ('base' removes every table of the referee, and every game with
    them: it asks first, or needs --yes when there is no terminal to ask on)."""
    if revision.strip().lower() == "base" and not yes:
        if not sys.stdin.isatty():
            raise click.UsageError("'db downgrade base' drops every table and every game: add --yes to do it "
                                   "without a terminal to ask on")
        if not click.confirm("This drops every table of the referee, and every game and mail in them. Go on?"):
            raise click.ClickException("nothing done")
    _migrate("downgrade", revision)


def _migrate(way: str, revision: str) -> None:
    """Upgrade or downgrade to ``revision`` and say from where to where."""
    store = open_store(check=False)
    with store_errors():
        before, after = getattr(store, way)(revision)
    click.echo(f"{store.describe()}: {before or 'empty'} -> {after or 'empty'}")
    store.close()


@db_group.command("current")
@click.option("--json", "as_json", is_flag=True, help="As JSON (database, current, newest, up_to_date).")
def db_current(as_json: bool) -> None:
    """Show the database, its revision and the newest one; exit 1 if it is not up to date."""
    from ..store.db import head_revision

    with json_errors(as_json):
        store = open_store(check=False)
        with store_errors():
            current = store.current_revision()
    head = head_revision()
    if as_json:
        from .support import echo_json

        echo_json({"database": store.describe(), "current": current, "newest": head, "up_to_date": current == head})
    else:
        click.echo(f"{store.describe()}: at {current or 'empty (no schema)'}, newest {head}")
    store.close()
    if current != head:
        sys.exit(1)
