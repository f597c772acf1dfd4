"""``referee tick``: one idempotent pass of the whole service, for cron.

In order: take the tick lock (another tick running: do nothing), extend deadlines that fell in an
outage, fetch and store new mail, process stored mail (orders, commands, GM commands, replies),
resolve every turn that is due and queue its mails, send reminders, send the outbox, reduce old mail
to its header (:mod:`referee.store.retention`). Each step commits its own work, so a tick killed at any
point leaves nothing half done: the next tick picks up where it stopped. A turn is resolved by one
process only (the store locks the game and checks the turn number again under the lock).

A turn is due when every live player has a program (after the game's settle delay, counted from the
last orders) or when its deadline has passed; then missing programs are filled by the game's
missing-orders policy and every player is told who was late. Players who are powered down, off the
board or out of the game are not waited for.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path

from filelock import FileLock, Timeout
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session

from .. import games as g
from ..common.config import Settings
from ..common.deadlines import deadline_text
from ..games import fills
from ..mailer.notices import announce, notice, tell_gm
from ..store import Store
from ..store.errors import StoreError
from ..store.mail import get_state, notices, record_notice, set_state
from ..store.models import Game, Player, Turn
from ..store.records import hand_of, locked_of
from . import cadence
from .tick_summary import TickSummary

log = logging.getLogger("referee.cron.tick")

LAST_RUN = "tick.last_run"


def lock_path(settings: Settings) -> Path:
    if settings.lock_file:
        return settings.path(settings.lock_file)
    url = settings.database_url
    if url.startswith("sqlite:///") and not url.endswith(":memory:"):
        return Path(url.removeprefix("sqlite:///").partition("?")[0] + ".tick.lock")
    return settings.path("referee.cron.tick.lock")


def tick(settings: Settings, *, now: datetime, store: Store | None = None) -> TickSummary:
    """One pass. ``now`` is the time the whole pass works with (see :mod:`referee.common.clock`)."""
    started = time.monotonic()
    summary = TickSummary()
    lock = FileLock(str(lock_path(settings)), timeout=0)
    try:
        lock.acquire()
    except Timeout:
        summary.skipped = "another tick is running"
        return summary
    except OSError as exc:   # a read-only or missing directory: one line, not a traceback
        summary.errors.append(f"cannot take the lock file {lock_path(settings)}: {exc.strerror or exc} "
                              "(set [lock] file to a writable place)")
        summary.seconds = time.monotonic() - started
        return summary
    from ..boards import use_settings

    use_settings(settings)   # the boards setting: custom courses found whatever the environment
    own_store = store is None
    store = store or Store.from_settings(settings)
    try:
        _sqlite_schema(store, settings, summary)
        store.check_schema()
        steps: list[tuple[str, Callable[[], None]]] = [
            ("outage", lambda: _outage(store, settings, now, summary)),
            ("fetch", lambda: _fetch(store, settings, now, summary)),
            ("process", lambda: _process(store, settings, now, summary)),
            ("resolve", lambda: _resolve_due(store, settings, now, summary)),
            ("remind", lambda: _remind(store, settings, now, summary)),
            ("send", lambda: _send(store, settings, now, summary)),
            ("archive", lambda: _archive(store, settings, now, summary)),
            ("retention", lambda: _retention(store, settings, now, summary)),
        ]
        step_errors: dict[str, str] = {}
        for name, step in steps:
            log.debug("tick step %s", name)
            try:
                step()
            except Exception as exc:  # one failing step must not stop the others (mail must still go out)
                if expected(exc):   # a server down, a disk full or read-only: one line; the trace at debug level
                    log.error("tick step %s failed: %s", name, one_line(exc))
                    log.debug("tick step %s failed", name, exc_info=True)
                else:
                    log.exception("tick step %s failed", name)
                summary.errors.append(f"{name}: {one_line(exc)}")
                step_errors[name] = one_line(exc)
        if summary.send_error and "send" not in step_errors:
            step_errors["send"] = summary.send_error
        with store.write() as s:
            before = get_state(s, LAST_RUN)
            cadence.record(s, now, last=datetime.fromisoformat(before["at"]) if before else None)
            set_state(s, LAST_RUN, {"at": now.isoformat()}, now=now)
        _health(store, now, summary, step_errors)
    except (StoreError, SQLAlchemyError, OSError) as exc:
        log.error("tick failed: %s", one_line(exc))
        summary.errors.append(one_line(exc))
    finally:
        if own_store:
            store.close()
        lock.release()
        summary.seconds = time.monotonic() - started
    return summary


def _sqlite_schema(store: Store, settings: Settings, summary: TickSummary) -> None:
    """An SQLite database at an older schema: upgraded here when ``sqlite_auto_upgrade`` is set (a copy of the
    file kept beside it first), else the tick stops in one line saying what to do."""
    from ..store.db import SchemaError, head_revision

    if store.dialect != "sqlite":
        return
    current, head = store.current_revision(), head_revision()
    if current is None or current == head:
        return
    if not settings.sqlite_auto_upgrade:
        raise SchemaError(f"the SQLite database {store.describe()} is at schema {current}, this referee needs "
                          f"{head}: run 'referee db upgrade' once, or set sqlite_auto_upgrade = true to let the "
                          "tick do it")
    import shutil

    path = Path(str(store.url.database))
    copy = path.with_name(f"{path.name}.before-{head}")
    shutil.copy2(path, copy)
    copy.chmod(0o600)
    try:
        store.upgrade()
    except Exception as exc:   # a schema this release does not know (a newer one wrote it): one line
        raise SchemaError(f"the SQLite database {store.describe()} at schema {current} cannot be upgraded to {head}: "
                          f"{one_line(exc)}") from None
    log.warning("upgraded the SQLite database %s from schema %s to %s (the old file is kept as %s)", path,
                current, head, copy)
    summary.changes.append(f"referee: upgraded the database from schema {current} to {head} (copy kept: {copy})")


def expected(exc: BaseException) -> bool:
    """An error of the world (a server that does not answer, a refused login, a full or read-only disk, the
    database), not of the referee: logged in one line."""
    from ..intake.imap_connection import IntakeError
    from ..mailer.oauth2 import OAuth2Error

    return isinstance(exc, OSError | StoreError | SQLAlchemyError | IntakeError | OAuth2Error | TimeoutError)


def one_line(exc: BaseException) -> str:
    """``exc`` as one line: its text with line breaks folded (PostgreSQL's DETAIL lines), or its type."""
    text = " ".join(str(getattr(exc, "orig", None) or exc).split())
    return text or type(exc).__name__


# -- steps -------------------------------------------------------------------------------------------
def _outage(store: Store, settings: Settings, now: datetime, summary: TickSummary) -> None:
    """Deadlines that passed while no tick ran are moved on by the length of the gap, when the gap is an
    outage by the cadence the ticks really come at (:mod:`.cadence`), once per outage and turn."""
    with store.read() as s:
        last = get_state(s, LAST_RUN)
        seen = cadence.gaps(cadence.runs(s))
    if not last:
        return
    since = datetime.fromisoformat(last["at"])
    gap = now - since
    if not cadence.is_outage(gap, seen, settings.tick_interval):
        return
    with store.read() as s:
        codes = [game.code for game in g.list_games(s, "running")]
    for code in codes:
        with store.write() as s:
            game = g.get_game(s, code, lock=True)
            turn = g.open_turn(s, game)
            if turn is None or turn.deadline is None or not since < turn.deadline <= now:
                continue
            if not g.extend_for_outage(s, game, turn, gap, cadence.outage_key(since), now=now):
                continue   # extended for this outage already (a tick that stopped half way, run again)
            new = turn.deadline
            body = _wording("outage.txt", hours=gap.total_seconds() / 3600, since=f"{since:%Y-%m-%d %H:%M}",
                            until=f"{now:%Y-%m-%d %H:%M}", game=game.code, turn=turn.number,
                            deadline=deadline_text(new, now)).rstrip("\n")
            announce(s, settings, game, subject=f"{game.code}: deadline extended", body=body,
                     key=f"outage:{game.code}:{turn.number}:{since.isoformat()}", now=now)
            tell_gm(s, settings, game, subject=f"[GM] {game.code}: deadline extended after an outage", body=body,
                    key=f"outage-gm:{game.code}:{turn.number}:{since.isoformat()}", now=now)
            summary.extended.append(f"{game.code} turn {turn.number}")


def _fetch(store: Store, settings: Settings, now: datetime, summary: TickSummary) -> None:
    from ..intake import poll_configured

    summary.fetched += poll_configured(settings, store).stored


def _process(store: Store, settings: Settings, now: datetime, summary: TickSummary) -> None:
    from ..intake.process import process_pending, referee_gm_handler

    summary.processed += process_pending(store, settings, now=now, gm_handler=referee_gm_handler).processed


def _resolve_due(store: Store, settings: Settings, now: datetime, summary: TickSummary) -> None:
    from .workers import resolve_due

    done = resolve_due(store, settings, now=now)
    summary.resolved += done.turns
    summary.errors += done.errors
    for code, number, why in done.stuck:
        summary.unresolvable.append(f"{code} turn {number}: {why}")
        with store.write() as s:   # its GM is told once (the notice's key), the tick says so every time
            game = g.get_game(s, code)
            tell_gm(s, settings, game, subject=f"[GM] {code}: turn {number} cannot be resolved",
                    body=_wording("unresolvable.txt", game=code, turn=number, why=why,
                                  course=game.course).rstrip("\n"),
                    key=f"unresolvable:{code}:{number}:{why}", now=now)


def _resolved_by_mail(s: Session, now: datetime, summary: TickSummary) -> None:
    """Turns resolved in this tick by a GM's mail (PROCESS) count in the summary as the due ones do."""
    from sqlalchemy import select

    for code, number in s.execute(select(Game.code, Turn.number).join(Game, Game.id == Turn.game_id)
                                  .where(Turn.resolved_at == now, Turn.status == "resolved").order_by(Turn.id)):
        if f"{code} turn {number}" not in summary.resolved:
            summary.resolved.append(f"{code} turn {number}")


def _health(store: Store, now: datetime, summary: TickSummary, step_errors: dict[str, str]) -> None:
    """Record the last fetch that worked, compare the faults with the last tick's (one line per fault that
    started or ended) and measure (:mod:`referee.cron.health`)."""
    from . import health

    stuck = dict(u.split(": ", 1) for u in summary.unresolvable)
    with store.write() as s:
        _resolved_by_mail(s, now, summary)
        if "fetch" not in step_errors:
            health.fetched_now(s, now)
        summary.changes += health.transitions(s, now, health.faults_now(s, now, step_errors=step_errors,
                                                                         stuck=stuck))
        summary.health = health.measure(s, now).as_dict()


def _remind(store: Store, settings: Settings, now: datetime, summary: TickSummary) -> None:
    from .workers import refresh_attention, reminder_candidates

    with store.read() as s:
        codes = reminder_candidates(s, now)
    for code in codes:
        with store.write() as s:
            game = g.get_game(s, code, lock=True)  # ticks that overlap remind one after the other
            turn = g.open_turn(s, game)
            if game.status != "running" or turn is None or turn.deadline is None or game.reminder_seconds <= 0:
                continue
            if not turn.deadline - timedelta(seconds=game.reminder_seconds) <= now < turn.deadline:
                continue
            done = notices(s, turn, "reminder")
            for p in g.waiting_for(s, game):
                if p.id in done:
                    continue
                mail = notice(s, settings, to=p.email, subject=f"{game.code} turn {turn.number}: your orders, please",
                              body=reminder_text(game, p, turn, now),
                              key=f"reminder:{game.code}:{turn.number}", kind="reminder", game=game, player=p,
                              turn_number=turn.number, now=now)
                record_notice(s, turn, "reminder", p, outgoing=mail, now=now)
                summary.reminders += 1
    refresh_attention(store, now)   # the games looked at and left as they were get their next time


def reminder_text(game: Game, player: Player, turn: Turn, now: datetime) -> str:
    """A reminder (``templates/reminder.txt``): the deadline and what happens after it, the numbered hand,
    fused registers, the form."""
    from ..reports.mails import order_template

    robot = next((r for r in g.robots_of(turn) if r.name == player.robot), None)
    locked = locked_of(turn, player.robot)
    return _wording("reminder.txt", robot=player.robot, turn=turn.number, game=game.code,
                    deadline=deadline_text(turn.deadline, now, player.timezone), policy=game.missing_orders,
                    summary=fills.strategy(game.missing_orders).summary, free=5 - len(locked),
                    hand=hand_of(turn, player.robot), locked=sorted(locked.items()),
                    form=order_template(game, player, turn, robot).rstrip())


def _wording(template: str, **context: object) -> str:
    """A message of the tick's from its template under ``templates/``."""
    from ..reports.templating import render

    return render(template, **context)


def _send(store: Store, settings: Settings, now: datetime, summary: TickSummary) -> None:
    from ..mailer.outbox import send_outbox_sync

    report = send_outbox_sync(store, settings, now=now)
    summary.sent += report.sent
    summary.failed += report.failed
    summary.unsent += report.left
    summary.postponed += report.postponed
    if report.stopped or (report.postponed and not report.sent):
        summary.send_error = report.stopped or (report.errors[0] if report.errors else "every send was refused")


ARCHIVED = "archive.built"


def _archive(store: Store, settings: Settings, now: datetime, summary: TickSummary) -> None:
    """Bring the public archive up to date for the games with newly published turns (only when it is served:
    ``archive_url`` set, and ``archive_on_tick``). Pages of unchanged turns are kept (see the manifest)."""
    if not settings.archive_on_tick or not settings.archive_url:
        return
    from ..archive.build import build_archive, published_turns

    with store.read() as s:
        built = dict(get_state(s, ARCHIVED) or {})
        marks: dict[str, str] = {}
        for game in g.list_games(s):
            if game.status == "forming":
                continue
            turns = published_turns(s, game)
            last = turns[-1] if turns else None
            marks[game.code] = f"{last.number if last else 0}:{last.resolved_at if last else ''}:{game.status}"
    due = [code for code, mark in marks.items() if built.get(code) != mark]
    if not due:
        return
    report = build_archive(store, settings.path(settings.archive_dir), games=due, now=now)
    log.info("archive: %s", report.summary())
    drawn = [code for code in due if not any(why.startswith(f"{code} ") for why in report.skipped)]
    with store.write() as s:   # a game that could not be drawn is tried again at the next tick
        set_state(s, ARCHIVED, {**built, **{code: marks[code] for code in drawn}}, now=now)


def _retention(store: Store, settings: Settings, now: datetime, summary: TickSummary) -> None:
    from ..store.retention import purge_old_mail

    with store.write() as s:
        summary.purged += purge_old_mail(s, settings, now=now)
