"""What every ``referee`` command shares: the settings file option, opening the store, one
transaction, store errors as one-line click errors, JSON output and who is acting.

Only click is imported at module level so that ``referee`` starts fast for commands that never
touch the store. Errors are one line on standard error and exit status 1.
"""

from __future__ import annotations

import getpass
import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

    from ..common.config import Settings
    from ..store.db import Store

CONFIG_META = "referee.common.config"
#: the exit status of a command that did nothing because another process had done it (or was doing it)
EXIT_NOTHING_DONE = 3


def cli_actor() -> str:
    """Who acts, for the audit log: ``cli:<user>``."""
    try:
        return f"cli:{getpass.getuser()}"
    except Exception:  # no user name to be had (containers): still say where it came from
        return "cli"


class SettingsError(click.ClickException):
    """Settings that cannot be used (a bad file, a value not allowed): one line, exit status 2."""

    exit_code = 2


def cli_settings() -> Settings:
    """The settings of this command line (``--config`` or ``$REFEREE_CONFIG``), every value checked.

    A file or value that cannot be used is one line and exit status 2 (:class:`SettingsError`); no
    configuration at all is one line and exit status 1, as ``config check`` says it."""
    from ..common.config import ConfigError
    from ..common.config_load import load_settings, require_configuration

    ctx = click.get_current_context()
    try:
        settings = load_settings(ctx.meta.get(CONFIG_META))
    except ConfigError as exc:
        raise SettingsError(str(exc)) from None
    try:  # never a database and Maildirs made in whatever directory cron runs in
        settings = require_configuration(settings)
    except ConfigError as exc:
        raise click.ClickException(str(exc)) from None
    from ..boards import use_settings

    use_settings(settings)
    return settings


@contextmanager
def store_errors() -> Iterator[None]:
    """Store errors as one-line click errors."""
    from sqlalchemy.exc import OperationalError

    from ..store.errors import StoreError

    try:
        yield
    except StoreError as exc:
        raise click.ClickException(str(exc)) from None
    except OperationalError as exc:
        raise click.ClickException(f"database error: {exc.orig}") from None


def open_store(check: bool = True) -> Store:
    """The configured store (its schema checked to be up to date when ``check``)."""
    from ..store.db import Store

    with store_errors():
        store = Store.from_settings(cli_settings())
        if check:
            store.check_schema()
    return store


@contextmanager
def store_session(*, write: bool) -> Iterator[Session]:
    """One transaction on the configured store (committed at the end when ``write``); errors as click errors."""
    store = open_store()
    try:
        with store_errors(), (store.write() if write else store.read()) as s:
            yield s
    finally:
        store.close()


@contextmanager
def json_errors(as_json: bool) -> Iterator[None]:
    """With ``--json``, a command's one-line error as JSON too: ``{"ok": false, "error": ...}`` on standard
    output, the same exit status."""
    try:
        yield
    except click.ClickException as exc:
        if not as_json:
            raise
        echo_json({"ok": False, "error": exc.format_message()})
        raise SystemExit(exc.exit_code) from None


def echo_json(data: Any) -> None:
    click.echo(json.dumps(data, indent=2, default=str))


def parse_duration(text: str) -> int:
    """``5d``, ``36h``, ``90m``, ``2 days``, ``2d12h`` or plain seconds -> seconds."""
    from ..common.clock import TimeError
    from ..common.clock import parse_duration as read

    try:
        return int(read(text).total_seconds())
    except TimeError as exc:
        raise click.BadParameter(str(exc)) from None
