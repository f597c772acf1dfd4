"""Carrying out the game master's commands against the store, each in its own transaction (from a
mail: a savepoint of the mail's transaction, see :mod:`referee.store.within`).

Every command is acknowledged (a line in the answer), written to the audit log by the store
function it calls (actor ``gm:<address>`` or ``cli:<user>``), and, when it changes the game for the
players, announced to all of them. A command that fails changes nothing and does not stop the
commands after it.
"""

from __future__ import annotations

import email
import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from email import policy
from typing import Any

from sqlalchemy.orm import Session

from .. import games as g
from ..clock import TimeError, parse_duration
from ..config import Settings
from ..deadlines import deadline_text
from ..engine import Card
from ..engine.geometry import dir_name, square_name
from ..games import resolve_and_report
from ..intake.tokens import reply_to
from ..notices import announce, notice, notice_id
from ..orders import OrderContext, parse_orders
from ..reports.mails import KIND_GM_COPY, enqueue_start_mails, enqueue_turn_mails, hand_of, locked_of, order_template
from ..store import Store
from ..store.errors import StoreError
from ..store.mail import enqueue_mail, release_held
from ..store.models import Game, OutgoingMail
from ..store.within import StoreWithin
from . import robot_set
from .language import Command

HELP = """\
Game master commands, one a line, between BEGIN GM <game> key <secret> and END:

  NEWGAME [code] [COURSE <course>] [TITLE "text"] [RULE edge=fence] [DEADLINE 5d [AT 21:00]]
          [REMINDER 24h] [SETTLE 30m] [MISSING autopilot|random|power_down|repeat_locked] [MISSED 3]
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
  ORDERS <robot> <program>         enter or replace a player's program (as a player would write it)
  SET <robot> [AT r5c4] [FACING N] [DAMAGE 3] [LIVES 2] [FLAGS 1] [ARCHIVE r2c2] [VIRTUAL no]
              [OPTIONS +Brakes -Shield] [STATUS +flying] [DATA "Mini Howitzer" shots=3]
                                   correct a robot in the open turn (its hand is dealt again)
  ROLLBACK <turn>                  reopen an earlier turn (later turns are removed, kept in the log)
  RERUN <turn> [<robot>: <program>; ...]   re-resolve the last turn with corrected programs
  EJECT <robot>      REPLACE <robot> WITH <address>      STATUS      HELP
  TIMEZONE <robot> <Europe/Berlin | NONE>   also show that player's deadlines in their time zone
"""


class CommandFailed(Exception):
    pass


class _Preview(Exception):
    """Raised to roll back a PREVIEW's transaction after its report was captured."""


@dataclass
class GmContext:
    store: Store | StoreWithin
    settings: Settings
    actor: str
    now: datetime
    game: str | None = None
    #: where the GM wants answers (mail); PREVIEW reports go there too
    reply_to: str | None = None
    lines: list[str] = field(default_factory=list)
    failures: int = 0


def run_commands(ctx: GmContext, commands: list[Command]) -> GmContext:
    for command in commands:
        handler = HANDLERS[command.name]
        try:
            text = handler(ctx, command)
        except (StoreError, CommandFailed, ValueError) as exc:
            ctx.failures += 1
            ctx.lines.append(f"line {command.line}: {command.text}\n    NOT DONE: {exc}")
        else:
            ctx.lines.append(f"line {command.line}: {command.text}\n    done: {text}")
    return ctx


def _game(ctx: GmContext) -> str:
    if not ctx.game:
        raise CommandFailed("no game named: put it on the BEGIN line (BEGIN GM RR-7 key ...) or say GAME RR-7")
    return ctx.game


def _key(ctx: GmContext, command: Command, what: str) -> str:
    """A stable key for the notices a command sends (a retried mail sends them once)."""
    raw = f"{ctx.game}|{what}|{command.line}|{command.text}|{ctx.now.isoformat()}"
    return hashlib.sha256(raw.encode()).hexdigest()[:20]


def _tell_players(ctx: GmContext, s: Session, game: Game, command: Command, subject: str, body: str) -> None:
    announce(s, ctx.settings, game, subject=f"{game.code}: {subject}", body=body, key=_key(ctx, command, "announce"),
             now=ctx.now)


# -- the commands ------------------------------------------------------------------------------------
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


def do_add_player(ctx: GmContext, command: Command) -> str:
    a = command.args
    with ctx.store.write() as s:
        player = g.add_player(s, _game(ctx), email=a["email"], robot=a["robot"], colour=a["colour"],
                              name=a["name"], now=ctx.now)
        return f"{player.robot} ({player.email}, {player.colour}) takes seat {player.seat}"


def do_start(ctx: GmContext, command: Command) -> str:
    with ctx.store.write() as s:
        turn = g.start_game(s, _game(ctx), actor=ctx.actor, now=ctx.now)
        game = g.get_game(s, _game(ctx))
        enqueue_start_mails(s, ctx.settings, game, now=ctx.now, reply_to=reply_to(ctx.settings, 1))
        return f"started; turn 1 dealt, deadline {_when(turn.deadline)}"


def do_pause(ctx: GmContext, command: Command) -> str:
    with ctx.store.write() as s:
        game = g.pause_game(s, _game(ctx), actor=ctx.actor, now=ctx.now)
        _tell_players(ctx, s, game, command, "game paused",
                      f"The game master has paused {game.code}. Orders are still taken; no turn is resolved and "
                      "the deadline stops until the game resumes.")
        return "paused"


def do_resume(ctx: GmContext, command: Command) -> str:
    with ctx.store.write() as s:
        game = g.resume_game(s, _game(ctx), actor=ctx.actor, now=ctx.now)
        turn = g.open_turn(s, game)
        when = _when(turn.deadline if turn else None)
        _tell_players(ctx, s, game, command, "game resumed",
                      f"The game master has resumed {game.code}. The deadline of turn {game.turn_number} is now "
                      f"{_players_when(turn.deadline if turn else None, ctx.now)}.")
        return f"resumed; deadline {when}"


def do_end_game(ctx: GmContext, command: Command) -> str:
    with ctx.store.write() as s:
        game = g.end_game(s, _game(ctx), actor=ctx.actor, now=ctx.now)
        _tell_players(ctx, s, game, command, "game over",
                      f"The game master has ended {game.code} after turn {game.turn_number}. Thank you for playing.")
        from ..reports.final import enqueue_final_mails

        enqueue_final_mails(s, ctx.settings, game, now=ctx.now)  # the final standings and statistics
        return "ended"


def _set_deadline(ctx: GmContext, command: Command, deadline: datetime | None) -> str:
    with ctx.store.write() as s:
        turn = g.set_deadline(s, _game(ctx), deadline, actor=ctx.actor, now=ctx.now)
        game = g.get_game(s, _game(ctx))
        _tell_players(ctx, s, game, command, f"new deadline for turn {turn.number}",
                      f"The game master has set the deadline of {game.code} turn {turn.number} to "
                      f"{_players_when(deadline, ctx.now)}.")
        return f"deadline of turn {turn.number}: {_when(deadline)}"


def do_set_deadline(ctx: GmContext, command: Command) -> str:
    at = command.args["at"]
    after = command.args["after"]
    if at is not None and at <= ctx.now and not command.args.get("past_ok"):
        raise CommandFailed(f"{_when(at)} is already past (it is {_when(ctx.now)}): the turn would be resolved "
                            "at once, with missing programs filled in. If that is what you want, add NOW: "
                            f"SET DEADLINE {at:%Y-%m-%d %H:%M} NOW")
    return _set_deadline(ctx, command, ctx.now + timedelta(seconds=after) if after is not None else at)


def do_extend(ctx: GmContext, command: Command) -> str:
    with ctx.store.read() as s:
        game = g.get_game(s, _game(ctx))
        turn = g.open_turn(s, game)
        if turn is None:
            raise CommandFailed(f"{game.code} has no open turn")
        base = turn.deadline or ctx.now
    return _set_deadline(ctx, command, base + timedelta(seconds=command.args["by"]))


def do_process(ctx: GmContext, command: Command) -> str:
    with ctx.store.write() as s:
        turn = resolve_and_report(s, ctx.settings, _game(ctx), actor=ctx.actor, now=ctx.now)
        game = g.get_game(s, _game(ctx))
        filled = [o.player.robot for o in g.active_orders(s, turn).values() if o.source == "auto"]
        tail = f"; filled by the {game.missing_orders} policy: {', '.join(filled)}" if filled else ""
        return f"turn {turn.number} resolved{tail}; results queued" + (" (held for review)"
                                                                       if game.hold_for_review else "")


def do_preview(ctx: GmContext, command: Command) -> str:
    captured: dict[str, bytes] = {}
    number = 0
    try:
        with ctx.store.write() as s:
            turn = resolve_and_report(s, ctx.settings, _game(ctx), actor=ctx.actor, now=ctx.now)
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
    msg["Message-ID"] = notice_id(_key(ctx, command, "preview"), ctx.reply_to, ctx.settings.domain)
    msg["To"] = ctx.reply_to
    with ctx.store.write() as s:
        enqueue_mail(s, msg.as_bytes(), kind="gm", recipients=[ctx.reply_to], sender=ctx.settings.referee_address,
                     game=g.get_game(s, _game(ctx)), now=ctx.now)
    return f"preview of turn {number} sent to {ctx.reply_to}; nothing was kept"


def do_hold(ctx: GmContext, command: Command) -> str:
    with ctx.store.write() as s:
        game = g.get_game(s, _game(ctx), lock=True)
        old = game.hold_for_review
        game.hold_for_review = command.args["on"]
        g.audit(s, "game.hold_for_review", actor=ctx.actor, game=game, now=ctx.now,
                details={"old": old, "new": game.hold_for_review})
        return "results will come to you first" if game.hold_for_review else "results go straight to the players"


def do_hints(ctx: GmContext, command: Command) -> str:
    with ctx.store.write() as s:
        game = g.get_game(s, _game(ctx), lock=True)
        old = game.hints
        game.hints = command.args["on"]
        g.audit(s, "game.hints", actor=ctx.actor, game=game, now=ctx.now, details={"old": old, "new": game.hints})
        return "players may ask for HINT" if game.hints else "HINT is refused to players"


def do_publish(ctx: GmContext, command: Command) -> str:
    with ctx.store.write() as s:
        game = g.get_game(s, _game(ctx))
        number = command.args["turn"]
        if number is None:
            last = g.last_resolved(s, game)
            if last is None:
                raise CommandFailed(f"{game.code} has no resolved turn")
            number = last.number
        g.publish_turn(s, game, number, actor=ctx.actor, now=ctx.now)
        released = release_held(s, game, number, now=ctx.now)
        return f"turn {number} published; {released} held mail(s) released"


def _program(s: Session, game: Game, robot: str, text: str, turn_number: int | None = None) -> list[Card]:
    """A program written as a player would, read against the robot's hand in that turn."""
    turn = g.get_turn(s, game, turn_number) if turn_number else g.open_turn(s, game)
    if turn is None:
        raise CommandFailed(f"{game.code} has no open turn")
    player = g.get_player(s, game, robot)
    context = OrderContext(hand=hand_of(turn, player.robot), locked=locked_of(turn, player.robot))
    result = parse_orders(text, context)
    if result.errors:
        raise CommandFailed("; ".join(str(e) for e in result.errors))
    if not result.program_given or result.registers is None:
        raise CommandFailed("no program in that line")
    return [r.card for r in result.registers]


def do_orders(ctx: GmContext, command: Command) -> str:
    with ctx.store.write() as s:
        game = g.get_game(s, _game(ctx))
        cards = _program(s, game, command.args["robot"], command.args["program"])
        order = g.submit_program(s, game, command.args["robot"], cards, source="gm", actor=ctx.actor,
                                 text=command.text, now=ctx.now)
        player = order.player
        program = ", ".join(str(c) for c in cards)
        notice(s, ctx.settings, to=player.email, subject=f"{game.code}: the game master entered your program",
               body=f"The game master entered this program for {player.robot} in turn {game.turn_number}:\n"
                    f"  {program}\nYou may still send your own orders before the deadline; the last ones count.",
               key=_key(ctx, command, "orders"), game=game, player=player, turn_number=game.turn_number, now=ctx.now)
        return f"{player.robot}: {program}"


def do_set_robot(ctx: GmContext, command: Command) -> str:
    changes = command.args["changes"]
    with ctx.store.write() as s:
        game = g.get_game(s, _game(ctx))
        turn = g.open_turn(s, game)
        if turn is None:
            raise CommandFailed(f"{game.code} has no open turn")
        robots = g.robots_of(turn)
        target = g.get_player(s, game, command.args["robot"]).robot
        _check_squares(game, changes)
        fixed = []
        said = ""
        for r in robots:
            if r.name == target:
                r = _apply(r, changes)
                said = _describe(r)
            fixed.append(r)
        if "options" in changes and turn.option_deck is not None:   # one copy of each card: the deck follows
            try:
                turn.option_deck = robot_set.deck_after(list(turn.option_deck), robots, fixed)
            except robot_set.SetError as exc:
                raise CommandFailed(str(exc)) from None
        g.replace_open_state(s, game, fixed, actor=ctx.actor, reason=command.text, now=ctx.now)
        _tell_players(ctx, s, game, command, f"{target} corrected",
                      f"The game master corrected {target} in turn {turn.number}: {said}.\n"
                      "Hands were dealt again where the correction changed them; if yours changed, new cards "
                      "follow and orders you sent for this turn must be sent again.")
        return f"{target}: {said}"


def _check_squares(game: Game, changes: dict[str, Any]) -> None:
    """``AT`` and ``ARCHIVE`` name squares of the game's course (or OFF), as a player's orders must."""
    board = g.load_course(game.course)
    for field_name in ("at", "archive"):
        square = changes.get(field_name)
        if square is not None and not board.on_board(square):
            raise CommandFailed(f"{field_name.upper()} {square_name(square)} is off the board: {game.course} has "
                                f"rows 1-{board.height} and columns 1-{board.width}"
                                + (" (and holes where no board lies)" if board.void else "")
                                + (", so write e.g. r1c1 or OFF" if field_name == "at" else ""))


def _apply(robot: Any, changes: dict[str, Any]) -> Any:
    carried = {k: changes[k] for k in ("options", "statuses", "option_data") if k in changes}
    if carried:
        try:
            robot = robot_set.apply(robot, carried)
        except robot_set.SetError as exc:
            raise CommandFailed(str(exc)) from None
        changes = {k: v for k, v in changes.items() if k not in carried}
    values = {"pos" if k == "at" else k: v for k, v in changes.items()}
    if "damage" in values:
        # fused registers follow the new damage; their cards are dealt again from the turn's seed
        values["locked"] = {}
    return replace(robot, **values)


def health(damage: Any, lives: Any, flags: Any) -> str:
    """Damage, lives and flags as the players' answers write them: ``damage 3 (HP 7), lives 2, flags touched 1``."""
    hp = f" (HP {10 - damage})" if isinstance(damage, int) else ""
    return f"damage {damage}{hp}, lives {lives}, flags touched {flags}"


def _describe(robot: Any) -> str:
    where = square_name(robot.pos) if robot.pos else "off the board"
    return (f"at {where} facing {dir_name(robot.facing)}, {health(robot.damage, robot.lives, robot.flags)}, "
            f"archive {square_name(robot.archive) if robot.archive else '-'}, {robot_set.describe(robot)}")


def _rerun_programs(s: Session, game: Game, number: int) -> dict[str, list[str]]:
    """The programs turn ``number`` was last resolved with where they differ from the orders on file: the
    corrections of a ``RERUN`` (empty if the turn is not resolved or was never re-run)."""
    turn = g.get_turn(s, game, number)
    if turn.status != "resolved" or not turn.programs:
        return {}
    on_file = {o.player.robot: list(o.program or []) for o in g.active_orders(s, turn).values()}
    return {robot: list(cards) for robot, cards in turn.programs.items()
            if cards and robot in on_file and list(cards) != on_file[robot]}


def do_rollback(ctx: GmContext, command: Command) -> str:
    number = command.args["turn"]
    with ctx.store.write() as s:
        kept = _rerun_programs(s, g.get_game(s, _game(ctx)), number)
        turn = g.rollback_to(s, _game(ctx), number, actor=ctx.actor, now=ctx.now)
        game = g.get_game(s, _game(ctx))
        for robot, cards in kept.items():  # a RERUN's corrections are the GM's orders for the reopened turn
            g.submit_program(s, game, robot, cards, turn_number=turn.number, source="gm", actor=ctx.actor,
                             text=f"kept from RERUN {number}: {', '.join(cards)}", now=ctx.now)
        _tell_players(ctx, s, game, command, f"turn {turn.number} reopened",
                      f"The game master has reopened turn {turn.number} of {game.code}; what came after it is "
                      "withdrawn. Orders you sent for that turn still stand (and programs the game master "
                      "corrected stay corrected); you may send new ones.")
        tail = (f"; the re-run's corrected programs are kept as orders for {', '.join(sorted(kept))}"
                if kept else "")
        return f"turn {turn.number} is open again{tail}"


def do_rerun(ctx: GmContext, command: Command) -> str:
    number = command.args["turn"]
    with ctx.store.write() as s:
        game = g.get_game(s, _game(ctx))
        programs: dict[str, Sequence[Card | str | None]] = {
            robot: _program(s, game, robot, text, number) for robot, text in command.args["programs"].items()}
        rerun = g.rerun_turn(s, game, number, programs=programs or None, actor=ctx.actor, now=ctx.now)
        if not rerun.changed:
            return f"turn {number} re-run: nothing changed"
        enqueue_turn_mails(s, ctx.settings, game, rerun.turn, now=ctx.now, correction=True,
                           reply_to=reply_to(ctx.settings, number + 1))
        redealt = " The next turn was dealt again: send your orders again." if rerun.redealt else ""
        _tell_players(ctx, s, game, command, f"turn {number} corrected",
                      f"The game master re-ran turn {number} of {game.code}; the corrected report follows.{redealt}")
        return f"turn {number} re-run; corrected results queued" + (" (next turn dealt again)" if rerun.redealt
                                                                     else "")


def do_eject(ctx: GmContext, command: Command) -> str:
    with ctx.store.write() as s:
        player = g.eject_player(s, _game(ctx), command.args["robot"], actor=ctx.actor, now=ctx.now)
        game = g.get_game(s, _game(ctx))
        _tell_players(ctx, s, game, command, f"{player.robot} leaves the game",
                      f"The game master has removed {player.robot} from {game.code}.")
        return f"{player.robot} ejected"


def do_replace(ctx: GmContext, command: Command) -> str:
    with ctx.store.write() as s:
        player = g.replace_player(s, _game(ctx), command.args["robot"], command.args["email"], actor=ctx.actor,
                                  now=ctx.now)
        game = g.get_game(s, _game(ctx))
        turn = g.open_turn(s, game)
        body = (f"You now play {player.robot} in {game.code} (RoboRally by mail).\n")
        if turn is not None and player.robot in turn.hands:
            robot = {r.name: r for r in g.robots_of(turn)}.get(player.robot)
            body += (f"\nYour cards for turn {turn.number}: {', '.join(turn.hands[player.robot])}\n"
                     f"Deadline: {_when(turn.deadline)}\n\nReply with this block filled in:\n\n"
                     + order_template(game, player, turn, robot))
        notice(s, ctx.settings, to=player.email, subject=f"{game.code}: you take over {player.robot}", body=body,
               key=_key(ctx, command, "replace"), game=game, player=player, now=ctx.now)
        _tell_players(ctx, s, game, command, f"{player.robot} has a new player",
                      f"{player.robot} of {game.code} is now played by someone new.")
        return f"{player.robot} is now played by {player.email}"


def do_status(ctx: GmContext, command: Command) -> str:
    with ctx.store.read() as s:
        game = g.get_game(s, _game(ctx))
        view = g.game_view(s, game)
    deadline = _when(datetime.fromisoformat(view["deadline"])) if view["deadline"] else "-"
    lines = [f"{view['code']} on {view['course']}: {view['status']}, turn {view['turn']}, deadline "
             f"{deadline}, missing orders: {view['missing_orders']}"
             + (", held for review" if view["hold_for_review"] else "")]
    for p in view["players"]:
        st = p["state"] or {}
        lines.append(f"      {p['robot']:<10} {p['email']:<28} {p['status']:<7} orders: {p['orders']:<8} "
                     f"at {st.get('at') or '-'}, "
                     f"{health(st.get('damage', '-'), st.get('lives', '-'), st.get('flags', '-'))}")
    return "\n".join(lines)


def do_timezone(ctx: GmContext, command: Command) -> str:
    """A player's time zone: their mails show deadlines in it too."""
    with ctx.store.write() as s:
        game = g.get_game(s, _game(ctx))
        player = g.get_player(s, game, command.args["robot"])
        player.timezone = command.args["zone"]
        g.audit(s, "player.timezone", actor=ctx.actor, game=game, now=ctx.now,
                details={"robot": player.robot, "zone": player.timezone})
        return f"{player.robot}'s deadlines are shown in {player.timezone or 'UTC only'}"


def do_help(ctx: GmContext, command: Command) -> str:
    return "\n" + HELP


def _players_when(deadline: datetime | None, now: datetime) -> str:
    """A deadline as the players' mails write it: weekday, date, UTC, time left."""
    return deadline_text(deadline, now) or "none (the turn waits for every program)"


def _when(deadline: datetime | None) -> str:
    return f"{deadline:%Y-%m-%d %H:%M} UTC" if deadline else "none (the turn waits for every program)"


HANDLERS: dict[str, Callable[[GmContext, Command], str]] = {
    "game": do_game, "newgame": do_newgame, "add_player": do_add_player, "start": do_start, "pause": do_pause,
    "resume": do_resume, "end_game": do_end_game, "set_deadline": do_set_deadline, "extend": do_extend,
    "process": do_process, "preview": do_preview, "hold": do_hold, "publish": do_publish, "orders": do_orders,
    "set_robot": do_set_robot, "rollback": do_rollback, "rerun": do_rerun, "eject": do_eject,
    "replace": do_replace, "status": do_status, "help": do_help, "timezone": do_timezone,
    "hints": do_hints,
}
