"""The GM's sign-up and press commands (issue 31), read by :mod:`.language` and run by :mod:`.commands`::

    OPEN [RR-7] [SEATS 6] [UNTIL 2026-12-05]   players may JOIN (UNTIL a day: to its end, UTC)
    CLOSE                                      no more JOINs
    AUTOSTART ON|OFF                           start the game once every seat is taken
    ACCEPT <robot or address>                  seat a player who asked to JOIN
    REFUSE <robot or address> [reason]         turn a sign-up down (the reason is passed on)
    SIGNUPS                                    sign-ups waiting, absences, the game's community settings
    PRESS OFF|GREY|WHITE                       press between players: none, anonymous, signed by robot name
    PRESS ARCHIVE ON|OFF                       the game's press goes into the archive once it is over
    ON RESIGN OPEN|AUTOPILOT                   a resigning player's robot: seat open for a new player, or
                                               played by the missing orders policy to the end
    ON ABSENCE WAIT|AUTOPILOT                  an absent player: the turn waits (extend it), or does not
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta
from typing import Any

from .. import games as g
from ..common.clock import TimeError, parse_time
from ..games import own, signup
from ..mailer.notices import notice
from ..messages import community as words
from ..reports.mails import order_template
from .context import CommandFailed, GmContext, deadline_words, game_code, notice_key
from .words import Command, GmSyntaxError, switch, whole_number

#: the first words of these commands (``language`` hands such lines here)
HEADS = ("OPEN", "CLOSE", "AUTOSTART", "ACCEPT", "REFUSE", "SIGNUPS", "PRESS", "ON")
#: command names for lines that could not be read
NAMES = {"OPEN": "open", "CLOSE": "close", "AUTOSTART": "autostart", "ACCEPT": "accept", "REFUSE": "refuse",
         "SIGNUPS": "signups", "PRESS": "press", "ON RESIGN": "on_resign", "ON ABSENCE": "on_absence"}
_CODE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9-]{0,31}$")

HELP = """\
Sign-up and press:
  OPEN [RR-7] [SEATS 6] [UNTIL 2026-12-05]   players may JOIN (UNTIL a day: to its end, UTC)
  CLOSE                            no more JOINs          AUTOSTART ON|OFF   start once full
  ACCEPT <robot or address>        seat a player who asked to JOIN (the player is told)
  REFUSE <robot or address> [reason]   turn a sign-up down (the player is told, with the reason)
  SIGNUPS                          sign-ups waiting, absences and these settings
  PRESS OFF|GREY|WHITE             press: none, anonymous, or signed with the robot's name
  PRESS ARCHIVE ON|OFF             press goes into the archive once the game is over
  ON RESIGN OPEN|AUTOPILOT         a resigned player's seat opens, or the autopilot plays on
  ON ABSENCE WAIT|AUTOPILOT        an absent player's turns wait, or the autopilot plays
"""


def parse(words: list[str], text: str, line: int) -> Command | None:
    """One of these commands, or None when ``words`` is none of them."""
    head = words[0].upper()
    upper = [w.upper() for w in words]

    def cmd(name: str, **args: Any) -> Command:
        return Command(name, args, line, text)

    if head == "OPEN":
        return _open(words[1:], cmd)
    if upper == ["CLOSE"]:
        return cmd("close")
    if upper == ["SIGNUPS"]:
        return cmd("signups")
    if head == "AUTOSTART":
        return cmd("autostart", on=switch(words[1]) if len(words) == 2 else True)
    if head in ("ACCEPT", "REFUSE"):
        if len(words) < 2:
            raise GmSyntaxError(f"{head} <robot or address>" + (" [reason]" if head == "REFUSE" else ""))
        if head == "ACCEPT" and len(words) > 2:
            raise GmSyntaxError("ACCEPT <robot or address>")
        reason = text.split(None, 2)[2].strip() if len(words) > 2 else ""
        return cmd(head.lower(), who=words[1], reason=reason[:500])
    if head == "PRESS":
        if len(words) == 3 and upper[1] == "ARCHIVE":
            return cmd("press_archive", on=switch(words[2]))
        if len(words) == 2 and upper[1] in ("OFF", "GREY", "GRAY", "WHITE"):
            return cmd("press", mode={"GRAY": "grey"}.get(upper[1], upper[1].lower()))
        raise GmSyntaxError("PRESS OFF, PRESS GREY, PRESS WHITE or PRESS ARCHIVE ON|OFF")
    if head == "ON" and len(words) == 3 and upper[1] in ("RESIGN", "ABSENCE"):
        allowed = ("OPEN", "AUTOPILOT") if upper[1] == "RESIGN" else ("WAIT", "AUTOPILOT")
        if upper[2] not in allowed:
            raise GmSyntaxError(f"ON {upper[1]} {' or '.join(allowed)}")
        return cmd(f"on_{upper[1].lower()}", policy=upper[2].lower())
    return None


def _until(value: str) -> datetime:
    """A day (to its end) or a time, UTC."""
    try:
        day = date.fromisoformat(value)
    except ValueError:
        try:
            return parse_time(value)
        except TimeError as exc:
            raise GmSyntaxError(str(exc)) from None
    return datetime(day.year, day.month, day.day, tzinfo=UTC) + timedelta(days=1)


def _open(words: list[str], cmd: Callable[..., Command]) -> Command:
    args: dict[str, Any] = {"code": None, "seats": None, "until": None}
    i = 0
    if words and words[0].upper() not in ("SEATS", "UNTIL"):
        if not _CODE.match(words[0]):
            raise GmSyntaxError(f"{words[0]!r} is no game code")
        args["code"] = words[0].upper()
        i = 1
    while i < len(words):
        key = words[i].upper()
        if key not in ("SEATS", "UNTIL") or i + 1 >= len(words):
            raise GmSyntaxError("OPEN [game] [SEATS n] [UNTIL 2026-12-05 or 2026-12-05T18:00]")
        if key == "SEATS":
            args["seats"] = whole_number(words[i + 1], "SEATS")
            i += 2
        else:
            rest = words[i + 1:]
            value = " ".join(rest[:2]) if len(rest) > 1 and re.match(r"^\d\d:\d\d", rest[1]) else rest[0]
            args["until"] = _until(value)
            i += 1 + len(value.split())
    return cmd("open", **args)


# -- carrying them out ------------------------------------------------------------------------------------
def _code(ctx: GmContext, command: Command) -> str:
    return str(command.args.get("code") or game_code(ctx))


def do_open(ctx: GmContext, command: Command) -> str:
    with ctx.store.write() as s:
        row = signup.open_signup(s, _code(ctx, command), seats=command.args["seats"], until=command.args["until"],
                                 actor=ctx.actor, now=ctx.now)
        game = g.get_game(s, _code(ctx, command))
        seats = row.seats or signup.seat_limit(game)
        until = f"until {deadline_words(row.until, ctx.now)}" if row.until else "until the game starts"
        return f"{game.code} is open for sign-up: {seats} seats, {until}; JOINs come to you to ACCEPT or REFUSE"


def do_close(ctx: GmContext, command: Command) -> str:
    with ctx.store.write() as s:
        signup.close_signup(s, game_code(ctx), actor=ctx.actor, now=ctx.now)
        return "sign-up closed"


def _setting(ctx: GmContext, name: str, value: Any, said: str) -> str:
    with ctx.store.write() as s:
        signup.set_setting(s, game_code(ctx), name, value, actor=ctx.actor, now=ctx.now)
        return said


def do_autostart(ctx: GmContext, command: Command) -> str:
    on = command.args["on"]
    return _setting(ctx, "autostart", on, "the game starts once every seat is taken" if on
                    else "you start the game yourself (START)")


def do_press(ctx: GmContext, command: Command) -> str:
    mode = command.args["mode"]
    said = {"off": "press is off", "grey": "press is grey: relayed without the sender's name",
            "white": "press is white: relayed with the sender's robot name"}[mode]
    return _setting(ctx, "press", mode, said)


def do_press_archive(ctx: GmContext, command: Command) -> str:
    on = command.args["on"]
    return _setting(ctx, "press_archive", on, "press goes into the archive once the game is over" if on
                    else "press stays out of the archive")


def do_on_resign(ctx: GmContext, command: Command) -> str:
    policy = command.args["policy"]
    return _setting(ctx, "on_resign", policy, "a resigned player's seat opens for a new player" if policy == "open"
                    else "a resigned player's robot is played by the missing orders policy to the end")


def do_on_absence(ctx: GmContext, command: Command) -> str:
    policy = command.args["policy"]
    return _setting(ctx, "on_absence", policy, "turns wait for absent players (EXTEND as you see fit)"
                    if policy == "wait" else "turns do not wait for absent players: the missing orders policy plays")


def do_accept(ctx: GmContext, command: Command) -> str:
    with ctx.store.write() as s:
        decision = signup.decide(s, ctx.settings, game_code(ctx), command.args["who"], accept=True, actor=ctx.actor,
                                 now=ctx.now)
        player = decision.player
        assert player is not None
        game = player.game
        takeover = ""
        turn = g.open_turn(s, game) if decision.signup.seat_of is not None else None
        if turn is not None and player.robot in turn.hands:   # a seat taken over: the open turn's cards and form
            robot = {r.name: r for r in g.robots_of(turn)}.get(player.robot)
            takeover = (f"Your cards for turn {turn.number}: {', '.join(turn.hands[player.robot])}\n"
                        f"Deadline: {deadline_words(turn.deadline, ctx.now, player.timezone)}\n\n"
                        "Reply with this block filled in:\n\n" + order_template(game, player, turn, robot))
        notice(s, ctx.settings, to=player.email, subject=words.accepted_subject(game.code, player.robot),
               body=words.accepted(game.code, player.robot, player.secret, decision.started is not None, takeover),
               key=notice_key(ctx, command, "accept"), game=game, player=player, now=ctx.now)
        tail = "; every seat is taken: the game has started" if decision.started is not None else ""
        return f"{player.robot} ({player.email}) takes seat {player.seat}; the player is told{tail}"


def do_refuse(ctx: GmContext, command: Command) -> str:
    with ctx.store.write() as s:
        decision = signup.decide(s, ctx.settings, game_code(ctx), command.args["who"], accept=False,
                                 reason=command.args["reason"], actor=ctx.actor, now=ctx.now)
        up = decision.signup
        notice(s, ctx.settings, to=up.address, subject=words.refused_subject(ctx.game or ""),
               body=words.refused(ctx.game or "", up.robot, up.reason), key=notice_key(ctx, command, "refuse"),
               now=ctx.now)
        return f"the sign-up of {up.robot} ({up.address}) is refused; the player is told"


def do_signups(ctx: GmContext, command: Command) -> str:
    with ctx.store.read() as s:
        game = g.get_game(s, game_code(ctx))
        row = signup.settings_view(s, game)
        lines = [f"{game.code}: sign-up {'open' if row.open else 'closed'}"
                 + (f", {row.seats} seats" if row.seats else "")
                 + (f", until {deadline_words(row.until, ctx.now)}" if row.until else "")
                 + f"; autostart {'on' if row.autostart else 'off'}; press {row.press}"
                 + f" (archive {'on' if row.press_archive else 'off'}); on resign {row.on_resign}; "
                 f"on absence {row.on_absence}"]
        waiting = signup.pending(s, game)
        lines.append("waiting: " + (", ".join(f"{u.robot} ({u.address})" for u in waiting) or "nobody"))
        away = own.absences(s, game)
        lines.append("absences: " + (", ".join(f"{p.robot} {a.starts:%Y-%m-%d} to "
                                              f"{a.ends - timedelta(days=1):%Y-%m-%d}" for p, a in away) or "none"))
        free = signup.open_seats(s, game)
        if free:
            lines.append("open seats: " + ", ".join(p.robot for p in free))
        return "\n      ".join(lines)


HANDLERS: dict[str, Callable[[GmContext, Command], str]] = {
    "open": do_open, "close": do_close, "autostart": do_autostart, "accept": do_accept, "refuse": do_refuse,
    "signups": do_signups, "press": do_press, "press_archive": do_press_archive, "on_resign": do_on_resign,
    "on_absence": do_on_absence,
}

__all__ = ["HANDLERS", "HEADS", "HELP", "NAMES", "CommandFailed", "parse"]
