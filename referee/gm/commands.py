"""Carrying out the game master's commands against the store, each in its own transaction (from a
mail: a savepoint of the mail's transaction, see :mod:`referee.store.within`).

Every command is acknowledged (a line in the answer), written to the audit log by the store
function it calls (actor ``gm:<address>`` or ``cli:<user>``), and, when it changes the game for the
players, announced to all of them. A command that fails changes nothing and does not stop the
commands after it.
"""

from __future__ import annotations

import email
from collections.abc import Callable, Sequence
from datetime import datetime
from email import policy
from typing import TYPE_CHECKING

from .. import games as g
from ..common.clock import TimeError, parse_duration
from ..common.deadlines import when_text
from ..games import fills, ranges, resolve_and_report
from ..games.rules_version import set_rules_version
from ..mailer.notices import notice_id
from ..reports.mails import KIND_GM_COPY
from ..store.errors import StoreError
from ..store.mail_models import OutgoingMail
from ..store.outbox import enqueue_mail, release_held
from ..store.queries import code_taken
from . import signup_commands
from .context import (
    CommandFailed,
    GmContext,
    deadline_words,
    game_code,
    notice_key,
    tell_key,
    tell_players,
)
from .corrections import do_orders, do_rerun, do_rollback, do_set_robot
from .language import Command
from .people import HANDLERS as GM_PEOPLE
from .people import HELP as GM_PEOPLE_HELP
from .people import guard
from .seats import do_add_player, do_eject, do_replace, do_status, do_timezone

if TYPE_CHECKING:
    pass

HELP = """\
Game master commands, one a line, between BEGIN GM <game> key <secret> and END:

  NEWGAME [code] [COURSE <course>] [TITLE "text"] [RULE edge=fence] [DEADLINE 5d [AT 21:00]]
          [REMINDER 24h] [SETTLE 30m] [MISSING {missing}] [MISSED 3]
          [HOLD ON] [SEED s]
  GAME <code>                      act on another game from here on
  ADD PLAYER <address> <robot> [COLOUR red] [NAME text]
  START | PAUSE | RESUME | END GAME
  SET DEADLINE <2026-12-01 18:00 | +2d | NONE> [NOW]   EXTEND <2d>
                                   (a time already past is refused unless NOW confirms it)
  PROCESS                          resolve the open turn now (missing programs filled by the policy)
  PREVIEW                          resolve it for your eyes only; nothing is kept
  HOLD FOR REVIEW ON|OFF           results come to you first ...
  PUBLISH [turn]                   ... and go to the players when you publish them
  HINTS ON|OFF                     players may (or may not) ask for HINT: the autopilot's best programs
  SET RULES <version>              play another rules version from the next turn dealt (players are told)
  ORDERS <robot> <program>         enter or replace a player's program (as a player would write it)
  SET <robot> [AT r5c4] [FACING N] [DAMAGE 3] [LIVES 2] [FLAGS 1] [ARCHIVE r2c2] [VIRTUAL no]
              [OPTIONS +Brakes -Shield] [STATUS +flying] [DATA "Mini Howitzer" shots=3]
                                   correct a robot in the open turn (its hand is dealt again)
  ROLLBACK <turn>                  reopen an earlier turn (later turns are removed, kept in the log)
  RERUN <turn> [<robot>: <program>; ...]   re-resolve the last turn with corrected programs
  EJECT <robot>      REPLACE <robot> WITH <address>      STATUS      HELP
  TIMEZONE <robot> <Europe/Berlin | NONE>   also show that player's deadlines in their time zone
""".replace("{missing}", "|".join(fills.names(game_policy=True))) + GM_PEOPLE_HELP


class _Preview(Exception):
    """Raised to roll back a PREVIEW's transaction after its report was captured."""



#: what a command needs to have gone well before it, among the commands of the same mail on the same game:
#: a START after a failed ADD PLAYER would start without that player, who could then never be added; a
#: PROCESS after a failed ORDERS or SET would resolve the turn without the correction
_TURN = frozenset({"start", "orders", "set_robot", "rollback", "eject", "replace"})
NEEDS: dict[str, frozenset[str]] = {
    "start": frozenset({"add_player", "eject", "replace"}),
    "process": _TURN,
    "preview": _TURN,
    "orders": frozenset({"start", "rollback"}),
    "set_robot": frozenset({"start", "rollback"}),
    "rerun": frozenset({"rollback", "orders", "set_robot"}),
    "publish": frozenset({"process", "rerun", "rollback"}),
}
#: commands that choose the game the lines after them act on: when one fails, the lines after it (up to
#: the next GAME or NEWGAME) would act on another game than meant, and are not run
CHOOSERS = frozenset({"game", "newgame"})
#: commands that only tell: they always run
HARMLESS = frozenset({"status", "help"})
#: command names as the GM writes them, for the answer
WORDS = {"add_player": "ADD PLAYER", "end_game": "END GAME", "set_deadline": "SET DEADLINE", "set_rules": "SET RULES",
         "set_robot": "SET", "hold": "HOLD FOR REVIEW"}


def command_word(command: Command) -> str:
    return WORDS.get(command.name, command.name.upper())


def _blocker(ctx: GmContext, command: Command, failed: dict[tuple[str | None, str], Command],
             lost: Command | None) -> Command | None:
    """The failed command of this mail that ``command`` depends on, or None."""
    if command.name in HARMLESS:
        return None
    if lost is not None and command.name not in CHOOSERS:
        return lost
    for name in NEEDS.get(command.name, ()):
        if (ctx.game, name) in failed:
            return failed[(ctx.game, name)]
    return None


def run_commands(ctx: GmContext, commands: list[Command], unread: Sequence[Command] = ()) -> GmContext:
    """Carry out ``commands`` in order; each adds a line (done, NOT DONE and why, or not done because a
    command it depends on failed or could not be read: ``unread``) to ``ctx.lines``."""
    failed: dict[tuple[str | None, str], Command] = {}
    lost: Command | None = None   # a failed GAME or NEWGAME: which game the lines after it mean is unknown
    for command in sorted([*commands, *unread], key=lambda c: c.line):
        if command.args.get("unread") is True:
            failed.setdefault((ctx.game, command.name), command)
            if command.name in CHOOSERS:
                lost = command
            continue
        blocker = _blocker(ctx, command, failed, lost)
        if blocker is not None:
            ctx.skipped += 1
            failed.setdefault((ctx.game, command.name), command)
            how = "could not be read" if blocker.args.get("unread") is True else "failed"
            said = f"{command_word(blocker)} on line {blocker.line} {how}"
            ctx.lines.append(f"line {command.line}: {command.text}\n    not done: {said}")
            ctx.results.append({"line": command.line, "text": command.text, "outcome": "not run", "said": said})
            continue
        handler = HANDLERS[command.name]
        try:
            guard(ctx, command)   # a game this mail's GM does not run: as if there were no such game
            text = handler(ctx, command)
        except (StoreError, CommandFailed, ValueError, OverflowError) as exc:
            ctx.news.drop()
            ctx.failures += 1
            failed.setdefault((ctx.game, command.name), command)
            if command.name in CHOOSERS:
                lost = command
            ctx.lines.append(f"line {command.line}: {command.text}\n    NOT DONE: {_reason(exc)}")
            ctx.results.append({"line": command.line, "text": command.text, "outcome": "failed",
                                "said": _reason(exc)})
        else:
            if command.name in CHOOSERS:
                lost = None
            _tell(ctx)
            ctx.lines.append(f"line {command.line}: {command.text}\n    done: {text}")
            ctx.results.append({"line": command.line, "text": command.text, "outcome": "done", "said": text})
    return ctx


def _tell(ctx: GmContext) -> None:
    """What the command just done changed, written into the players' notices of this mail (one each)."""
    touched = ctx.news.keep()
    if touched:
        with ctx.store.write() as s:
            for code in sorted(touched):
                ctx.news.write(s, ctx.settings, code, key=tell_key(ctx), now=ctx.now)


def _reason(exc: Exception) -> str:
    if isinstance(exc, OverflowError):   # a time beyond the calendar: never a crash of the whole mail
        return "that time is beyond the calendar the referee can keep (year 9999)"
    return str(exc)


def do_game(ctx: GmContext, command: Command) -> str:
    with ctx.store.read() as s:
        game = g.get_game(s, command.args["code"])
    ctx.game = game.code
    return f"now acting on {game.code} ({game.status})"


def _default_seconds(text: str, what: str) -> int:
    try:
        return int(parse_duration(text).total_seconds())
    except TimeError as exc:
        raise CommandFailed(f"the configured {what}: {exc}") from None


def do_newgame(ctx: GmContext, command: Command) -> str:
    """A new game; what the command leaves out comes from the ``default_*`` settings."""
    a = command.args
    gm = ctx.reply_to or None
    d = ctx.settings
    deadline = a["deadline"] if a["deadline"] is not None else _default_seconds(d.default_deadline, "default_deadline")
    reminder = a["reminder"] if a["reminder"] is not None else _default_seconds(d.default_reminder, "default_reminder")
    with ctx.store.write() as s:
        if a["code"] and code_taken(s, str(a["code"]).strip()):   # said alike of any game, the GM's or another's
            raise CommandFailed(f"the code {str(a['code']).strip().upper()} cannot be used: leave it out (a free "
                                "code is chosen) or choose another")
        game = g.create_game(s, course=a["course"] or d.default_course, code=a["code"], title=a["title"],
                             rules=a["rules"], seed=a["seed"], deadline_seconds=deadline, reminder_seconds=reminder,
                             settle_seconds=a["settle"] if a["settle"] is not None
                             else _default_seconds(d.default_settle, "default_settle"),
                             deadline_time=a.get("deadline_at"),
                             missing_orders=a["missing"] or d.default_missing_orders,
                             max_missed_turns=a["missed"], hold_for_review=bool(a["hold"]), gm_address=gm,
                             actor=ctx.actor, now=ctx.now)
        ctx.game = game.code
        return f"game {game.code} created on {game.course}; add players, then START"


def do_start(ctx: GmContext, command: Command) -> str:
    with ctx.store.write() as s:
        turn, _ = g.start_and_announce(s, ctx.settings, game_code(ctx), actor=ctx.actor, now=ctx.now)
        return f"started; turn 1 dealt, deadline {deadline_words(turn.deadline, ctx.now)}"


def do_pause(ctx: GmContext, command: Command) -> str:
    with ctx.store.write() as s:
        game = g.pause_game(s, game_code(ctx), actor=ctx.actor, now=ctx.now)
        tell_players(ctx, s, game, command, "game paused", "the game is paused",
                     "Orders are still taken while the game is paused; no turn is resolved and the deadline stops "
                     "until the game resumes.", about="pause")
        return "paused"


def do_resume(ctx: GmContext, command: Command) -> str:
    with ctx.store.write() as s:
        game = g.resume_game(s, game_code(ctx), actor=ctx.actor, now=ctx.now)
        turn = g.open_turn(s, game)
        when = deadline_words(turn.deadline if turn else None, ctx.now)
        tell_players(ctx, s, game, command, "game resumed",
                     f"the game is resumed; the deadline of turn {game.turn_number} is {when}", about="pause")
        return f"resumed; deadline {when}"


def do_end_game(ctx: GmContext, command: Command) -> str:
    with ctx.store.write() as s:
        game = g.end_game(s, game_code(ctx), actor=ctx.actor, now=ctx.now)
        if game.started_at is None:   # nothing was played: one short notice, no standings
            tell_players(ctx, s, game, command, "game called off",
                         "the game was ended before it started; no turn was played")
            return "ended before it started; the players are told"
        from ..reports.final import enqueue_final_mails

        enqueue_final_mails(s, ctx.settings, game, now=ctx.now)  # one game-over mail: standings and statistics
        return "ended"


def _set_deadline(ctx: GmContext, command: Command, deadline: datetime | None) -> str:
    with ctx.store.write() as s:
        turn = g.set_deadline(s, game_code(ctx), deadline, actor=ctx.actor, now=ctx.now)
        game = g.get_game(s, game_code(ctx))
        tell_players(ctx, s, game, command, f"new deadline for turn {turn.number}",
                     f"the deadline of turn {turn.number} is now {deadline_words(deadline, ctx.now)}",
                     about="deadline")
        return f"deadline of turn {turn.number}: {deadline_words(deadline, ctx.now)}"


def do_set_deadline(ctx: GmContext, command: Command) -> str:
    at = command.args["at"]
    after = command.args["after"]
    if at is not None and at <= ctx.now and not command.args.get("past_ok"):
        raise CommandFailed(f"{when_text(at)} is already past (it is {when_text(ctx.now)}): the turn would be "
                            "resolved at once, with missing programs filled in. If that is what you want, add NOW: "
                            f"SET DEADLINE {at:%Y-%m-%d %H:%M} NOW")
    return _set_deadline(ctx, command, _later(ctx.now, after) if after is not None else at)


def _later(base: datetime, seconds: int) -> datetime:
    found = ranges.later(base, seconds)
    if found is None:
        raise CommandFailed("that time is beyond the calendar the referee keeps")
    return found


def do_extend(ctx: GmContext, command: Command) -> str:
    with ctx.store.read() as s:
        game = g.get_game(s, game_code(ctx))
        turn = g.open_turn(s, game)
        if turn is None:
            raise CommandFailed(f"{game.code} has no open turn")
        base = turn.deadline or ctx.now
    return _set_deadline(ctx, command, _later(base, command.args["by"]))


def do_process(ctx: GmContext, command: Command) -> str:
    with ctx.store.write() as s:
        turn = resolve_and_report(s, ctx.settings, game_code(ctx), actor=ctx.actor, now=ctx.now)
        game = g.get_game(s, game_code(ctx))
        filled = [o.player.robot for o in g.active_orders(s, turn).values() if o.source == "auto"]
        tail = f"; filled by the {game.missing_orders} policy: {', '.join(filled)}" if filled else ""
        return f"turn {turn.number} resolved{tail}; results queued" + (" (held for review)"
                                                                       if game.hold_for_review else "")


def do_preview(ctx: GmContext, command: Command) -> str:
    captured: dict[str, bytes] = {}
    number = 0
    try:
        with ctx.store.write() as s:
            turn = resolve_and_report(s, ctx.settings, game_code(ctx), actor=ctx.actor, now=ctx.now)
            number = turn.number
            for mail in s.query(OutgoingMail).filter(OutgoingMail.turn_number == turn.number,
                                                     OutgoingMail.kind == KIND_GM_COPY):
                captured["gm"] = mail.raw
            raise _Preview
    except _Preview:
        pass
    if "gm" not in captured or not ctx.reply_to:
        return f"turn {number} would resolve; no GM address to send the preview to"
    msg = email.message_from_bytes(captured["gm"], policy=policy.default)
    for name in ("Subject", "Message-ID", "To"):
        del msg[name]
    msg["Subject"] = f"[PREVIEW, nothing kept] {ctx.game} turn {number}"
    msg["Message-ID"] = notice_id(notice_key(ctx, command, "preview"), ctx.reply_to, ctx.settings.domain)
    msg["To"] = ctx.reply_to
    with ctx.store.write() as s:
        enqueue_mail(s, msg.as_bytes(), kind="gm", recipients=[ctx.reply_to], sender=ctx.settings.referee_address,
                     game=g.get_game(s, game_code(ctx)), now=ctx.now)
    return f"preview of turn {number} sent to {ctx.reply_to}; nothing was kept"


def do_hold(ctx: GmContext, command: Command) -> str:
    with ctx.store.write() as s:
        game = g.get_game(s, game_code(ctx), lock=True)
        old = game.hold_for_review
        game.hold_for_review = command.args["on"]
        g.audit(s, "game.hold_for_review", actor=ctx.actor, game=game, now=ctx.now,
                details={"old": old, "new": game.hold_for_review})
        return "results will come to you first" if game.hold_for_review else "results go straight to the players"


def do_hints(ctx: GmContext, command: Command) -> str:
    with ctx.store.write() as s:
        game = g.get_game(s, game_code(ctx), lock=True)
        old = game.hints
        game.hints = command.args["on"]
        g.audit(s, "game.hints", actor=ctx.actor, game=game, now=ctx.now, details={"old": old, "new": game.hints})
        return "players may ask for HINT" if game.hints else "HINT is refused to players"


def do_set_rules(ctx: GmContext, command: Command) -> str:
    with ctx.store.write() as s:
        game = g.get_game(s, game_code(ctx), lock=True)
        move = set_rules_version(s, game, command.args["version"], actor=ctx.actor, now=ctx.now)
        tell_players(ctx, s, game, command, f"rules version {move.new} from turn {move.from_turn}",
                     f"the game plays rules version {move.new} from turn {move.from_turn}", move.announcement(),
                     about="rules")
        return f"{game.code} plays rules version {move.new} from turn {move.from_turn} (was {move.old}); players told"


def do_publish(ctx: GmContext, command: Command) -> str:
    with ctx.store.write() as s:
        game = g.get_game(s, game_code(ctx))
        number = command.args["turn"]
        if number is None:
            last = g.last_resolved(s, game)
            if last is None:
                raise CommandFailed(f"{game.code} has no resolved turn")
            number = last.number
        g.publish_turn(s, game, number, actor=ctx.actor, now=ctx.now)
        released = release_held(s, game, number, now=ctx.now)
        return f"turn {number} published; {released} held mail(s) released"

def do_help(ctx: GmContext, command: Command) -> str:
    return "\n" + HELP


HANDLERS: dict[str, Callable[[GmContext, Command], str]] = {
    "game": do_game, "newgame": do_newgame, "add_player": do_add_player, "start": do_start, "pause": do_pause,
    "resume": do_resume, "end_game": do_end_game, "set_deadline": do_set_deadline, "extend": do_extend,
    "process": do_process, "preview": do_preview, "hold": do_hold, "publish": do_publish, "orders": do_orders,
    "set_robot": do_set_robot, "rollback": do_rollback, "rerun": do_rerun, "eject": do_eject,
    "replace": do_replace, "status": do_status, "help": do_help, "timezone": do_timezone,
    "hints": do_hints,
    "set_rules": do_set_rules,
    **GM_PEOPLE,
}
HANDLERS.update(signup_commands.HANDLERS)   # sign-up and press (issue 31)
HELP += "\n" + signup_commands.HELP
