"""``referee outbox ...``: send the outbox, look into it, send a failed mail again."""

from __future__ import annotations

import sys
from typing import Any

import click

from ..console.support import cli_settings as _settings
from ..console.support import echo_json as _echo_json
from ..console.support import open_store as _open_store
from ..console.support import store_errors as _errors
from ..console.support import store_session as _session


@click.group("outbox")
def outbox_group() -> None:
    """Outgoing mail: every mail the referee sends waits here until it is sent."""


@outbox_group.command("send")
@click.option("--limit", type=int, default=None,
              help="Send at most this many mails in this pass (default: every due mail, in batches of "
                   "outbox_batch, for up to outbox_pass_seconds).")
@click.option("--verbose", "-v", is_flag=True, help="Log every mail.")
def outbox_send(limit: int | None, verbose: bool) -> None:
    """Send the mails that are due (one pass; temporary failures are retried on later passes).

    Exits 1 when the mail server could not be used (the mails wait for the next pass)."""
    import logging

    from ..common.config import ConfigError
    from .outbox import send_outbox_sync

    if verbose:
        logging.basicConfig(level=logging.INFO, format="%(message)s", stream=sys.stderr)
    settings = _settings()
    store = _open_store()
    try:
        with _errors():
            report = send_outbox_sync(store, settings, limit=limit)
    except ConfigError as exc:
        raise click.ClickException(str(exc)) from None
    finally:
        store.close()
    click.echo(report.summary())
    if verbose:
        for line in report.errors:
            click.echo(f"  {line}", err=True)
    if report.stopped:
        sys.exit(1)


def _row(m: Any, code: str | None) -> dict[str, Any]:
    return {"id": m.id, "status": m.status, "kind": m.kind, "game": code, "turn": m.turn_number,
            "to": list(m.recipients), "subject": m.subject, "attempts": m.attempts,
            "created_at": m.created_at.isoformat(), "next_attempt_at": m.next_attempt_at.isoformat(),
            "sent_at": m.sent_at.isoformat() if m.sent_at else None, "last_error": m.last_error,
            "message_id": m.message_id, "size": len(m.raw)}


def _size(size: int) -> str:
    """A mail's size as providers state their limits: ``1.3 kB``, ``137 kB``, ``2.4 MB``."""
    if size >= 1_000_000:
        return f"{size / 1_000_000:.1f} MB"
    return f"{size / 1000:.1f} kB" if size < 10_000 else f"{size // 1000} kB"


@outbox_group.command("list")
@click.option("--status", type=click.Choice(["pending", "sending", "sent", "failed", "held", "cancelled"]))
@click.option("--game", "code", help="Only this game's mails.")
@click.option("--limit", default=50, show_default=True, help="The newest this many.")
@click.option("--json", "as_json", is_flag=True, help="As JSON.")
def outbox_list(status: str | None, code: str | None, limit: int, as_json: bool) -> None:
    """List outgoing mails, newest first, with each mail's size as it is stored (before DKIM adds ~0.5 kB)."""
    from sqlalchemy import select

    from .. import games
    from ..store.mail_models import OutgoingMail
    from ..store.models import Game

    with _session(write=False) as s:
        stmt = select(OutgoingMail, Game.code).outerjoin(Game, Game.id == OutgoingMail.game_id)
        if status:
            stmt = stmt.where(OutgoingMail.status == status)
        if code:
            stmt = stmt.where(OutgoingMail.game_id == games.get_game(s, code).id)
        rows = [_row(m, c) for m, c in s.execute(stmt.order_by(OutgoingMail.id.desc()).limit(limit))]
    if as_json:
        _echo_json(rows)
        return
    if not rows:
        click.echo("no mails")
    for r in rows:
        when = r["sent_at"] or r["next_attempt_at"]
        where = f"{r['game']} t{r['turn']}" if r["game"] else "-"
        click.echo(f"{r['id']:>6} {r['status']:<9} {r['kind']:<12} {where:<12} {', '.join(r['to']):<28} "
                   f"{when[:16].replace('T', ' ')} {_size(r['size']):>7}  {r['subject'][:60]}")
        if r["last_error"] and r["status"] != "sent":
            click.echo(f"{'':>6} {r['attempts']} tries; last error: {r['last_error']}")


@outbox_group.command("show")
@click.argument("mail_id", type=int)
@click.option("--raw", is_flag=True, help="The whole mail as it is sent.")
def outbox_show(mail_id: int, raw: bool) -> None:
    """One outgoing mail: its state, or (--raw) the mail itself."""
    from ..store.errors import NotFound
    from ..store.mail_models import OutgoingMail
    from ..store.models import Game

    with _session(write=False) as s:
        m = s.get(OutgoingMail, mail_id)
        if m is None:
            raise click.ClickException(str(NotFound(f"no outgoing mail {mail_id}")))
        game = s.get(Game, m.game_id) if m.game_id is not None else None
        row = _row(m, game.code if game else None)
        data = bytes(m.raw)
    if raw:
        sys.stdout.buffer.write(data)
        return
    _echo_json(row)


@outbox_group.command("retry")
@click.argument("mail_ids", type=int, nargs=-1, required=True)
def outbox_retry(mail_ids: tuple[int, ...]) -> None:
    """Put failed (or cancelled) mails back in the queue, to go with the next pass."""
    from .outbox import requeue

    with _session(write=True) as s:
        done = requeue(s, list(mail_ids))
    missing = sorted(set(mail_ids) - set(done))
    click.echo(f"queued again: {', '.join(map(str, done)) or 'none'}")
    if missing:
        raise click.ClickException(f"not failed or cancelled (or no such mail): {', '.join(map(str, missing))}")
