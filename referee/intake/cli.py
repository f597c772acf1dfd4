"""``referee poll``, ``referee ingest``, ``referee process`` and ``referee mail ...``.

``referee ingest`` is meant for an MTA (procmail, a Postfix ``pipe`` transport): it stores the mail
on standard input and exits 0, or exits 75 (EX_TEMPFAIL) when it could not (database down or busy,
bad settings), which tells the MTA to keep the mail and try again later. It never exits with a
status that would bounce a player's mail.
"""

from __future__ import annotations

import sys
from typing import Any

import click

from ..console.support import cli_settings as _settings
from ..console.support import echo_json as _echo_json
from ..console.support import open_store as _open_store
from ..console.support import store_errors as _errors
from ..console.support import store_session as _session

EX_TEMPFAIL = 75


def _process_now(store: Any, settings: Any, limit: int | None = None) -> None:
    """Process waiting mails; GM commands go to :mod:`referee.gm`."""
    from ..common.clock import now
    from .process import process_pending, referee_gm_handler

    with _errors():
        report = process_pending(store, settings, limit=limit, now=now(),
                                 gm_handler=referee_gm_handler)
    click.echo(report.summary())


@click.command("poll")
@click.option("--process", "then_process", is_flag=True, help="Process the mails right after taking them in.")
@click.option("--limit", type=int, default=None, help="Take at most this many new mails in this pass.")
@click.option("--batch", type=click.IntRange(1, 200), default=25, show_default=True,
              help="Mails fetched (and stored) at a time.")
@click.option("--verbose", "-v", is_flag=True, help="Log what happens.")
def poll_command(then_process: bool, limit: int | None, batch: int, verbose: bool) -> None:
    """Take new mail from the inbox (IMAP or Maildir, per ``transport``) into the store.

    With ``transport = "smtp"`` there is no inbox: mail comes in through ``referee ingest``, and this
    only says so (``--process`` still processes the stored mail).

    Each mail is stored and committed before it is moved to the processed folder (or flagged seen),
    so a crash never loses or doubles one. Exits 1 when the mail server could not be used."""
    import logging

    from ..common.clock import now as clock_now
    from ..common.config import ConfigError
    from . import poll_configured
    from .imap import IntakeError

    if verbose:
        logging.basicConfig(level=logging.INFO, format="%(message)s", stream=sys.stderr)
    settings = _settings()
    store = _open_store()
    try:
        with _errors():
            report = poll_configured(settings, store, limit=limit, batch=batch, now=clock_now())
        click.echo(report.summary())
        if then_process:
            _process_now(store, settings)
    except (IntakeError, ConfigError) as exc:
        raise click.ClickException(str(exc)) from None
    finally:
        store.close()


@click.command("ingest")
@click.option("--process", "then_process", is_flag=True, help="Process the mail right after storing it.")
def ingest_command(then_process: bool) -> None:
    """Store one mail read from standard input (for procmail or an MTA pipe).

    Exit status 0: stored (or stored already); 75 (EX_TEMPFAIL): not stored, try again later."""
    raw = sys.stdin.buffer.read()
    try:
        from ..common.clock import now
        from ..common.config_load import load_settings, require_configuration
        from ..console.support import CONFIG_META
        from ..store.db import Store
        from .maildir import ingest_bytes

        settings = require_configuration(load_settings(click.get_current_context().meta.get(CONFIG_META)))
        from ..boards import use_settings

        use_settings(settings)
        store = Store.from_settings(settings)
        try:
            store.check_schema()
            mail_id, new = ingest_bytes(store, raw, now=now())
        finally:
            store.close()
    except Exception as exc:  # whatever it is, the MTA must keep the mail and retry
        click.echo(f"referee ingest: mail not stored, try again later: {type(exc).__name__}: {exc}"[:500], err=True)
        sys.exit(EX_TEMPFAIL)
    click.echo(f"stored as mail {mail_id}" + ("" if new else " (had it already)"))
    if then_process:
        store = Store.from_settings(settings)
        try:
            _process_now(store, settings)
        finally:
            store.close()


@click.command("process")
@click.option("--limit", type=int, default=None, help="Process at most this many mails.")
@click.option("--verbose", "-v", is_flag=True, help="Log what happens.")
def process_command(limit: int | None, verbose: bool) -> None:
    """Read the stored mails not processed yet: take their orders and queue the answers."""
    import logging

    if verbose:
        logging.basicConfig(level=logging.INFO, format="%(message)s", stream=sys.stderr)
    settings = _settings()
    store = _open_store()
    try:
        _process_now(store, settings, limit)
    finally:
        store.close()


@click.group("mail")
def mail_group() -> None:
    """Incoming mail as stored: list it, show one, process some again."""


@mail_group.command("list")
@click.option("--outcome", type=click.Choice(["new", "accepted", "rejected", "ignored", "error", "unreadable"]),
              default=None)
@click.option("--limit", default=50, show_default=True, help="The newest this many.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def mail_list(outcome: str | None, limit: int, as_json: bool) -> None:
    """The newest incoming mails and what was made of them."""
    from sqlalchemy import select

    from ..store.mail_models import IncomingMail

    with _session(write=False) as s:
        stmt = select(IncomingMail).order_by(IncomingMail.id.desc()).limit(limit)
        if outcome:
            stmt = stmt.where(IncomingMail.outcome == outcome)
        rows = [{"id": m.id, "received": m.received_at.isoformat(timespec="seconds"), "from": m.from_addr,
                 "subject": m.subject, "outcome": m.outcome, "reason": m.reason, "source": m.source,
                 "attempts": m.attempts, "moved": m.moved_at is not None} for m in s.scalars(stmt)]
    if as_json:
        _echo_json(rows)
        return
    from ..common.textsafe import for_terminal

    for r in reversed(rows):   # headers from mail may hold terminal escapes: shown as \x1b, never sent
        click.echo(f"{r['id']:>6}  {r['received']}  {r['outcome']:<10}  {for_terminal(str(r['from']))[:32]:<32}  "
                   f"{for_terminal(str(r['subject'] or ''))[:40]:<40}  "
                   f"{for_terminal(str(r['reason'] or ''))[:60]}".rstrip())


@mail_group.command("show")
@click.argument("mail_id", type=int)
@click.option("--raw", is_flag=True, help="Print the mail exactly as received.")
def mail_show(mail_id: int, raw: bool) -> None:
    """One incoming mail: its record, or (--raw) its bytes."""
    from ..store.mail_models import IncomingMail

    with _session(write=False) as s:
        m = s.get(IncomingMail, mail_id)
        if m is None:
            raise click.ClickException(f"no incoming mail {mail_id}")
        if raw:
            sys.stdout.buffer.write(m.raw)
            return
        _echo_json({c.key: getattr(m, c.key) for c in IncomingMail.__table__.columns if c.key != "raw"})


@mail_group.command("reprocess")
@click.argument("mail_ids", nargs=-1, type=int)
@click.option("--outcome", type=click.Choice(["accepted", "rejected", "ignored", "error"]), default="error",
              show_default=True, help="Without ids: every mail with this outcome.")
@click.option("--now", "run_now", is_flag=True, help="Process them right away.")
def mail_reprocess(mail_ids: tuple[int, ...], outcome: str, run_now: bool) -> None:
    """Put mails back to be processed again (after a fix): the given ids, or all with --outcome.

    Orders a mail gave are not taken back; processing it again may take them again (the last valid
    orders count) and answer the player once more."""
    from ..store.mail import reprocess

    with _session(write=True) as s:
        count = reprocess(s, outcome=None if mail_ids else outcome, ids=list(mail_ids) if mail_ids else None)
    click.echo(f"{count} mails put back to be processed")
    if run_now and count:
        settings = _settings()
        store = _open_store()
        try:
            _process_now(store, settings)
        finally:
            store.close()
