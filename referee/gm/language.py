"""The game master's command language (pure: text in, commands or errors out).

A GM mail carries one block::

    BEGIN GM RR-7 key <gm secret>
    PAUSE
    SET Twonky AT r5c4 FACING N DAMAGE 3
    END

The game named on the BEGIN line is the one the commands act on (``GAME RR-8`` switches;
``NEWGAME`` switches to the game it creates). Keywords are case-insensitive; one command a line;
``#`` starts a comment. The same lines work on the command line (``referee gm RR-7 "PAUSE"``).
See docs/gm.md for every command.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field
from typing import Any

from ..common.clock import DurationTooLong, TimeError, parse_duration, parse_time
from ..common.deadlines import BadClock, parse_clock, zone
from ..common.suggest import closest, did_you_mean
from ..common.values import typed_word
from ..engine.geometry import NotationError, parse_dir, parse_square
from ..engine.state import GM_FIELDS
from ..games import ranges
from ..orders.extract import body_lines, clean, find_gm_begin
from . import people_words, robot_set
from .words import Command, GmSyntaxError, switch, whole_number

END = re.compile(r"^END\s*[.!]?$", re.IGNORECASE)


@dataclass
class GmBlock:
    """What a GM mail (or command line) says: the game, the key, the commands, and what was wrong."""

    game: str | None = None
    key: str | None = None
    commands: list[Command] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    found: bool = False
    #: the lines that could not be read, as commands of the name they seem to be (``args["unread"]``): the
    #: lines after them that depend on them are not run (see :data:`referee.gm.commands.NEEDS`)
    unread: list[Command] = field(default_factory=list)


def begin_key(text: str) -> str | None:
    """The key on the first (unquoted) BEGIN GM line, read without reading the commands."""
    header = find_gm_begin(text)
    return header.key if header is not None else None


def find_block(text: str) -> tuple[bool, str | None, str | None, list[tuple[int, str]]]:
    """(found, game, key, numbered lines of the block). The BEGIN GM line is found by
    :func:`referee.orders.extract.find_gm_begin`; quoted lines (``>``) never count."""
    header = find_gm_begin(text)
    if header is None:
        return False, None, None, []
    lines = body_lines(text)
    body: list[tuple[int, str]] = []
    for k in range(header.index + 1, len(lines)):
        text_k = clean(lines[k])
        if END.match(text_k):
            break
        if text_k.startswith(">"):
            continue
        body.append((k + 1, text_k))
    return True, header.game, header.key, body


def parse_block(text: str) -> GmBlock:
    found, game, key, body = find_block(text)
    block = GmBlock(game=game.upper() if game else None, key=key, found=found)
    if found:
        block.commands, block.errors = parse_lines(body)
        block.unread = unread_commands(body, block.errors)
    return block


#: the command a line seems to be, by its first words (for lines that could not be read)
_NAMES = {"START": "start", "PAUSE": "pause", "RESUME": "resume", "END GAME": "end_game", "PROCESS": "process",
          "PREVIEW": "preview", "STATUS": "status", "HELP": "help", "GAME": "game", "NEWGAME": "newgame",
          "ADD PLAYER": "add_player", "SET DEADLINE": "set_deadline", "EXTEND": "extend",
          "HOLD FOR REVIEW": "hold", "PUBLISH": "publish", "ORDERS": "orders", "SET": "set_robot",
          "ROLLBACK": "rollback", "RERUN": "rerun", "EJECT": "eject", "REPLACE": "replace", "TIMEZONE": "timezone",
          "HINTS": "hints"}
_NAMES.update(people_words.NAMES)


def unread_commands(lines: list[tuple[int, str]], errors: list[str]) -> list[Command]:
    """The lines named in ``errors`` as the commands they seem to be (name ``unknown`` when none)."""
    bad = {int(m.group(1)) for e in errors if (m := re.match(r"line (\d+):", e))}
    out = []
    for number, raw in lines:
        if number not in bad:
            continue
        text = raw.split("#", 1)[0].strip()
        words = " ".join(text.split()).upper().split()
        name = next((_NAMES[" ".join(words[:n])] for n in (3, 2, 1) if " ".join(words[:n]) in _NAMES), "unknown")
        out.append(Command(name, {"unread": True}, number, text))
    return out


def parse_lines(lines: list[tuple[int, str]]) -> tuple[list[Command], list[str]]:
    commands: list[Command] = []
    errors: list[str] = []
    for number, raw in lines:
        text = raw.split("#", 1)[0].strip()
        if not text:
            continue
        try:
            commands.append(parse_command(text, number))
        except GmSyntaxError as exc:
            errors.append(f"line {number}: {exc} ({text!r})")
    return commands, errors


def _words(text: str) -> list[str]:
    try:
        return shlex.split(text)
    except ValueError:
        return text.split()


def _duration(value: str, limits: ranges.Range | None = None) -> int:
    try:
        seconds = int(parse_duration(value).total_seconds())
    except DurationTooLong as exc:
        raise GmSyntaxError(limits.refusal(value[:40]) if limits else str(exc)) from None
    except TimeError as exc:
        raise GmSyntaxError(str(exc)) from None
    problem = limits.problem(seconds) if limits else None
    if problem:
        raise GmSyntaxError(problem)
    return seconds


SIMPLE = {"START": "start", "PAUSE": "pause", "RESUME": "resume", "END GAME": "end_game", "PROCESS": "process",
          "PREVIEW": "preview", "STATUS": "status", "HELP": "help"}
NEWGAME_OPTIONS = {"COURSE", "TITLE", "RULE", "DEADLINE", "REMINDER", "SETTLE", "MISSING", "MISSED", "HOLD", "SEED",
                   "AT"}
ROBOT_FIELDS = set(GM_FIELDS)  # the words Robot declares for its fields (engine.state)
ROBOT_RANGES = {"DAMAGE": ranges.DAMAGE, "LIVES": ranges.LIVES, "FLAGS": ranges.FLAGS}


def parse_command(text: str, line: int = 0) -> Command:
    """One command line (without comment) -> :class:`Command`, or :class:`GmSyntaxError`."""
    upper = " ".join(text.split()).upper()
    words = _words(text)
    head = words[0].upper()

    def cmd(command: str, **args: Any) -> Command:
        return Command(command, args, line, text)

    if upper in SIMPLE:
        return cmd(SIMPLE[upper])
    try:
        about_gms: Command | None = people_words.parse(words, cmd)   # SET SECRET, COMASTER
        if about_gms is not None:
            return about_gms
    except people_words.WordsError as exc:
        raise GmSyntaxError(str(exc)) from None
    from .signup_commands import HEADS, parse  # sign-up and press (issue 31)

    if head in HEADS and (found := parse(words, text, line)) is not None:
        return found
    if head == "GAME" and len(words) == 2:
        return cmd("game", code=words[1].upper())
    if head == "NEWGAME":
        return _newgame(words[1:], cmd)
    if upper.startswith("ADD PLAYER"):
        rest = words[2:]
        if len(rest) < 2:
            raise GmSyntaxError("ADD PLAYER needs an address and a robot name: ADD PLAYER alice@example.org Twonky")
        args: dict[str, Any] = {"email": rest[0], "robot": rest[1], "colour": None, "name": ""}
        i = 2
        while i < len(rest):
            key = rest[i].upper()
            if key in ("COLOUR", "COLOR") and i + 1 < len(rest):
                args["colour"] = rest[i + 1].lower()
                i += 2
            elif key == "NAME" and i + 1 < len(rest):
                args["name"] = " ".join(rest[i + 1:])
                break
            else:
                raise GmSyntaxError(f"unexpected {rest[i]!r} (ADD PLAYER <address> <robot> [COLOUR c] [NAME text])")
        return cmd("add_player", **args)
    if upper.startswith("SET DEADLINE"):
        value = text.split(None, 2)[2] if len(words) > 2 else ""
        if not value:
            raise GmSyntaxError("SET DEADLINE needs a time (2026-12-01 18:00), a delay from now (+2d) or NONE")
        # a trailing NOW confirms a deadline already past (the turn is then resolved at the next tick)
        value, confirm = re.subn(r"\s+NOW\s*$", "", value.strip(), flags=re.IGNORECASE)
        if value.strip().upper() == "NONE":
            return cmd("set_deadline", at=None, after=None, past_ok=bool(confirm))
        if value.strip().startswith("+"):
            return cmd("set_deadline", at=None, after=_duration(value, ranges.EXTEND), past_ok=bool(confirm))
        try:
            return cmd("set_deadline", at=parse_time(value), after=None, past_ok=bool(confirm))
        except TimeError as exc:
            raise GmSyntaxError(str(exc)) from None
    if head == "TIMEZONE":
        if len(words) != 3:
            raise GmSyntaxError("TIMEZONE <robot> <zone>, e.g. TIMEZONE Twonky Europe/Berlin (NONE: UTC only)")
        if words[2].upper() != "NONE":
            try:
                zone(words[2])
            except BadClock as exc:
                raise GmSyntaxError(str(exc)) from None
        return cmd("timezone", robot=words[1], zone=None if words[2].upper() == "NONE" else words[2])
    if head == "EXTEND":
        rest = [w for w in words[1:] if w.upper() != "BY"]
        if not rest:
            raise GmSyntaxError("EXTEND needs a duration: EXTEND 2d (or 2 days, 36h, 1d 12h)")
        return cmd("extend", by=_duration(" ".join(rest), ranges.EXTEND))
    if upper.startswith("HOLD FOR REVIEW"):
        if len(words) != 4:
            raise GmSyntaxError("HOLD FOR REVIEW ON or HOLD FOR REVIEW OFF")
        return cmd("hold", on=switch(words[3]))
    if head == "HINTS":
        if len(words) != 2:
            raise GmSyntaxError("HINTS ON or HINTS OFF")
        return cmd("hints", on=switch(words[1]))
    if head == "PUBLISH":
        if len(words) > 2:
            raise GmSyntaxError("PUBLISH [turn]")
        return cmd("publish", turn=whole_number(words[1], "the turn", ranges.TURN) if len(words) == 2 else None)
    if head == "ORDERS":
        parts = text.split(None, 2)
        if len(parts) < 3:
            raise GmSyntaxError("ORDERS <robot> <program>, e.g. ORDERS Twonky FWD2 670, RT90 80, 3, 4, 5")
        return cmd("orders", robot=parts[1], program=parts[2])
    if head == "SET" and len(words) >= 3 and words[1].upper() == "RULES" and \
            (words[2].isdigit() or words[2].upper() == "VERSION"):
        rest = [w for w in words[2:] if w.upper() != "VERSION"]
        if len(rest) != 1 or not rest[0].isdigit():
            raise GmSyntaxError("SET RULES <version>, e.g. SET RULES 4")
        return cmd("set_rules", version=int(rest[0]))
    if head == "SET" and len(words) >= 2:
        if words[1].upper() != "DEADLINE" and closest(words[1], ["DEADLINE"]) and \
                (len(words) < 3 or words[2].upper() not in ROBOT_FIELDS):
            raise GmSyntaxError(f"unknown command SET {words[1]} (did you mean SET DEADLINE?)")
        return _set_robot(words[1], words[2:], cmd)
    if head == "ROLLBACK":
        rest = [w for w in words[1:] if w.upper() not in ("TO", "TURN")]
        if len(rest) != 1:
            raise GmSyntaxError("ROLLBACK <turn>")
        return cmd("rollback", turn=whole_number(rest[0], "the turn", ranges.TURN))
    if head == "RERUN":
        m = re.match(r"^RERUN\s+(?:TURN\s+)?(\d+)\s*(.*)$", text.strip(), re.IGNORECASE)
        if not m:
            raise GmSyntaxError("RERUN <turn> [<robot>: <program>; <robot>: <program>...]")
        fixes: dict[str, str] = {}
        for part in filter(None, (p.strip() for p in m.group(2).split(";"))):
            robot, sep, program = part.partition(":")
            if not sep or not robot.strip() or not program.strip():
                raise GmSyntaxError(f"a correction reads '<robot>: <program>', not {part!r}")
            fixes[robot.strip()] = program.strip()
        return cmd("rerun", turn=whole_number(m.group(1), "the turn", ranges.TURN), programs=fixes)
    if head == "EJECT" and len(words) == 2:
        return cmd("eject", robot=words[1])
    if head == "REPLACE":
        if len(words) != 4 or words[2].upper() != "WITH":
            raise GmSyntaxError("REPLACE <robot> WITH <address>")
        return cmd("replace", robot=words[1], email=words[3])
    raise GmSyntaxError(f"unknown command{_command_hint(words)} (send HELP for the list)")


#: every command's keywords, for suggestions
COMMAND_WORDS = ("START", "PAUSE", "RESUME", "END GAME", "PROCESS", "PREVIEW", "STATUS", "HELP", "GAME", "NEWGAME",
                 "ADD PLAYER", "SET DEADLINE", "SET RULES", "EXTEND", "HOLD FOR REVIEW", "PUBLISH", "ORDERS", "SET",
                 "ROLLBACK", "RERUN", "EJECT", "REPLACE", "TIMEZONE", "HINTS", *people_words.WORDS)


def _command_hint(words: list[str]) -> str:
    """`` (did you mean PAUSE?)`` for ``PAUZE``, ``ADD PLAYR``, ``HOLD FOR REVEIW``..., else nothing."""
    for count in (3, 2, 1):
        if len(words) >= count:
            joined = {c.replace(" ", ""): c for c in COMMAND_WORDS if len(c.split()) > count}  # ENDGAME
            known = {c: c for c in COMMAND_WORDS if len(c.split()) == count} | joined
            found = closest(" ".join(words[:count]), known)
            if found:
                return f" {' '.join(words[:count])} (did you mean {known[found]}?)"
    return f" {words[0]}" if words else ""


def _newgame(words: list[str], cmd: Any) -> Command:
    args: dict[str, Any] = {"code": None, "course": None, "title": "", "rules": {}, "deadline": None,
                            "reminder": None, "settle": None, "missing": None, "missed": None, "hold": None,
                            "seed": None, "deadline_at": None}
    i = 0
    if words and words[0].upper() not in NEWGAME_OPTIONS:
        args["code"] = words[0].upper()
        i = 1
    while i < len(words):
        key = words[i].upper()
        if key not in NEWGAME_OPTIONS or i + 1 >= len(words):
            hint = did_you_mean(key, NEWGAME_OPTIONS) if key not in NEWGAME_OPTIONS else ""
            raise GmSyntaxError(f"unexpected {words[i]!r}{hint} (NEWGAME [code] COURSE name [TITLE text] [RULE k=v] "
                                "[DEADLINE 5d [AT 21:00]] [REMINDER 24h] [SETTLE 30m] [MISSING random] [MISSED 3] "
                                "[HOLD ON] [SEED s])")
        value = words[i + 1]
        if key == "RULE":
            name, sep, raw = value.partition("=")
            if not sep:
                raise GmSyntaxError(f"a house rule reads name=value, not {value!r}")
            args["rules"][name.strip()] = typed_word(raw.strip())
        elif key in ("DEADLINE", "REMINDER", "SETTLE"):
            if i + 2 < len(words) and _UNIT_WORD.match(words[i + 2]):  # DEADLINE 5 days
                value = f"{value} {words[i + 2]}"
                i += 1
            args[key.lower()] = _duration(value, {"DEADLINE": ranges.DEADLINE, "REMINDER": ranges.REMINDER,
                                                  "SETTLE": ranges.SETTLE}[key])
        elif key == "AT":  # DEADLINE 3d AT 21:00: every deadline at that clock time (UTC)
            try:
                args["deadline_at"] = parse_clock(value)
            except BadClock as exc:
                raise GmSyntaxError(str(exc)) from None
        elif key == "MISSED":
            args["missed"] = whole_number(value, "MISSED", ranges.MISSED)
        elif key == "HOLD":
            args["hold"] = switch(value)
        elif key == "MISSING":
            args["missing"] = value.lower().replace("-", "_")
        elif key == "TITLE" and len(value) > ranges.TITLE_CHARS:
            raise GmSyntaxError(f"TITLE has at most {ranges.TITLE_CHARS} characters (this one has {len(value)})")
        else:
            args[key.lower()] = value
        i += 2
    return cmd("newgame", **args)


#: a unit written as its own word after a number (``5 days``)
_UNIT_WORD = re.compile(r"^(d|days?|h|hours?|m|mins?|minutes?|s|secs?|seconds?)$", re.IGNORECASE)


def _set_robot(robot: str, words: list[str], cmd: Any) -> Command:
    if not words:
        raise GmSyntaxError("SET <robot> AT r5c4 FACING N DAMAGE 3 LIVES 2 FLAGS 1 ARCHIVE r2c2 "
                            "OPTIONS +Brakes -Shield STATUS +flying DATA <option> <field>=<value>")
    changes: dict[str, Any] = {}
    i = 0
    try:
        while i < len(words):
            key = words[i].upper()
            if key in robot_set.CLAUSES:   # what the robot carries: options, statuses, their data
                what, value, used = robot_set.read_clause(key, words[i + 1:], ROBOT_FIELDS | set(robot_set.CLAUSES))
                if what == "option_data":
                    changes.setdefault(what, []).append(value)
                elif what in changes:
                    raise GmSyntaxError(f"{key} is given twice")
                else:
                    changes[what] = value
                i += 1 + used
                continue
            if key not in ROBOT_FIELDS or i + 1 >= len(words):
                hint = did_you_mean(key, ROBOT_FIELDS | set(robot_set.CLAUSES)) if key not in ROBOT_FIELDS else ""
                raise GmSyntaxError(f"unexpected {words[i]!r}{hint} (fields: AT, FACING, DAMAGE, LIVES, FLAGS, "
                                    "ARCHIVE, VIRTUAL yes/no, POWERED DOWN yes/no, OPTIONS +Brakes -Shield, "
                                    "STATUS +flying, DATA <option> <field>=<value>)")
            value = words[i + 1]
            if key == "POWERED":
                if value.upper() != "DOWN" or i + 2 >= len(words):
                    raise GmSyntaxError("POWERED DOWN yes or POWERED DOWN no")
                changes["powered_down"] = switch(words[i + 2])
                i += 3
                continue
            if key in ("AT", "ARCHIVE"):
                changes[key.lower()] = None if value.upper() in ("OFF", "NONE") else parse_square(value)
            elif key == "FACING":
                changes["facing"] = parse_dir(value)
            elif key == "VIRTUAL":
                changes["virtual"] = switch(value)
            else:
                changes[key.lower()] = whole_number(value, key, ROBOT_RANGES[key])
            i += 2
    except (NotationError, robot_set.SetError) as exc:
        raise GmSyntaxError(str(exc)) from None
    return cmd("set_robot", robot=robot, changes=changes)
