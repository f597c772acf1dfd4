"""A player's (or anyone's) own commands, read from a mail (pure: text in, commands or errors out).

Anyone may write::

    LIST                          open and running games
    JOIN RR-7 [AS Twonky]         ask for a seat (a free robot name is offered without AS)
    WHOIS Twonky | WHOIS a@b.org  who plays which robot where
    OBSERVE RR-7 / UNOBSERVE RR-7 the game's public turn results, by mail
    CONFIRM <token>               answer a confirmation mail (a reply to it works as well)

A player, with her key (a BEGIN line or a reply to her own mail), also::

    RESIGN RR-7
    SET ADDRESS new@example.org   (the new address confirms first)
    SET WHOIS ON|OFF              WHOIS may show my address
    SET PICTURES ALL|STAGES|NONE  the pictures my turn mails carry (of the game of my key)
    ABSENT 2026-12-01 TO 2026-12-08   (ABSENT NONE: no longer away)
    GAMES                         my games, my robots, what is due
    PRESS TO ALL | PRESS TO <robot>   and the message on the lines after it

A mail is read as such commands only when its first line of its own (not quoted, or the first line of
its BEGIN block) is one of these commands (or, in a mail of one line, starts with one of their words: the
answer then says what is wrong); anything else is read as orders, as before.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from typing import Any

from ..common.suggest import did_you_mean
from ..common.textsafe import clean_text
from . import community_ranges as ranges
from .community_phrases import content_lines, is_greeting, is_name, is_sign_off

#: the first words of a command mail
HEADS = ("LIST", "JOIN", "WHOIS", "OBSERVE", "UNOBSERVE", "CONFIRM", "RESIGN", "SET ADDRESS", "SET WHOIS",
         "SET PICTURES", "ABSENT", "GAMES", "PRESS")
#: commands anyone may send; the others need the player's key
OPEN_TO_ALL = frozenset({"list", "join", "whois", "observe", "unobserve", "confirm"})
#: at most this many characters of press are relayed (:mod:`.community_ranges`)
PRESS_CHARS = ranges.PRESS_CHARS.high
#: at most this many commands in one mail
MAX_COMMANDS = ranges.COMMANDS.high
#: what ``SET PICTURES`` takes
PICTURES = ("ALL", "STAGES", "NONE")
_HEAD_WORDS = sorted({h.split()[0] for h in HEADS})

_GAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9-]{0,31}$")
_ROBOT = re.compile(r"^[A-Za-z][A-Za-z0-9_-]{0,19}$")
_TOKEN = re.compile(r"^[a-z]\.\d{1,12}\.[a-z2-7]{16}$")
#: a token in a subject line: ``[confirm c.12.abcd...]``, ``[unobserve o.3.abcd...]``
SUBJECT_TOKEN = re.compile(r"\[(confirm|unobserve)\s+([a-z]\.\d{1,12}\.[a-z2-7]{16})\]", re.IGNORECASE)
_END = re.compile(r"^END\s*[.!]?$", re.IGNORECASE)
#: a BEGIN line with the key and without a turn (the order language's own needs the turn)
_BEGIN = re.compile(r"^BEGIN\s+(?P<game>[A-Za-z0-9][A-Za-z0-9-]{0,31})\s+(?P<robot>[A-Za-z][A-Za-z0-9_-]{0,19})"
                    r"\s+KEY\s*[:=]?\s*(?P<key>\S+)\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class PlayerCommand:
    name: str
    args: dict[str, Any]
    line: int
    text: str


@dataclass
class CommandMail:
    commands: list[PlayerCommand] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    #: lines that are no command and not a greeting, sign-off or name: named in the answer, not errors
    skipped: list[str] = field(default_factory=list)

    @property
    def open_to_all(self) -> bool:
        """Every command may come from anyone (no key needed)."""
        return all(c.name in OPEN_TO_ALL for c in self.commands)


class CommandSyntaxError(ValueError):
    pass


class CommandValueError(CommandSyntaxError):
    """A command written right whose value is out of its range (:mod:`.community_ranges`): answered NOT DONE."""

    def __init__(self, name: str, why: str) -> None:
        super().__init__(why)
        self.name = name


def is_command_line(line: str) -> bool:
    """Whether ``line`` starts with a command word of this module."""
    upper = " ".join(line.split()).upper()
    return any(upper == h or upper.startswith(h + " ") for h in HEADS)


def subject_token(subject: str | None) -> tuple[str, str] | None:
    """(``confirm`` or ``unobserve``, token) written in a subject line, or None."""
    m = SUBJECT_TOKEN.search(subject or "")
    return (m.group(1).lower(), m.group(2).lower()) if m else None


@dataclass(frozen=True)
class Begin:
    game: str
    robot: str
    key: str


def split_begin(lines: list[tuple[int, str]]) -> tuple[Begin | None, list[tuple[int, str]]]:
    """A first line ``BEGIN RR-7 Twonky key ...`` (no turn) read off ``lines``: (its game, robot and key, the
    lines after it); else (None, ``lines``)."""
    own = [(n, t) for n, t in lines if t.strip()]
    while len(own) > 1 and is_greeting(own[0][1]) and not _BEGIN.match(own[0][1].strip()):   # "Hi," above it
        own.pop(0)
    if own and (m := _BEGIN.match(own[0][1].strip())):
        rest = [(n, t) for n, t in lines if n > own[0][0]]
        return Begin(m.group("game").upper(), m.group("robot"), m.group("key")), rest
    return None, lines


def read_commands(lines: list[tuple[int, str]]) -> CommandMail | None:
    """The commands of a mail's own lines (``(number, text)``, quotes and signature already left out), or
    None when its first line is no command of this module. A greeting above the commands ("Hi,") and a
    sign-off below them ("Thanks,", "Cheers", "-- ", with everything after it) are left out, and so is a
    line with the writer's name ("Alice"), as in order mails; another line that is no command is named in
    the answer (:attr:`CommandMail.skipped`) unless it looks like a mistyped command (then it is an error)."""
    own = [(n, t.strip()) for n, t in lines]
    while own and (not own[0][1] or (is_greeting(own[0][1]) and not is_command_line(own[0][1]))):
        own.pop(0)
    if not own or not is_command_line(own[0][1]):
        return None
    content = content_lines([t for _, t in own])
    if sum(1 for t in content if t) > 1:   # "List of my orders:" above orders is no command: the orders are read
        try:
            parse_line(own[0][1], own[0][0])
        except CommandValueError:
            pass
        except CommandSyntaxError:
            return None
    out = CommandMail()
    i = 0
    while i < len(own):
        number, text = own[i]
        i += 1
        if not text or text.startswith("#"):
            continue
        if _END.match(text) or is_sign_off(text):
            break
        if not is_command_line(text):
            if _mistyped(text):
                out.errors.append(f"line {number}: unknown command"
                                  f"{did_you_mean(text.split()[0], _HEAD_WORDS)} ({text[:80]!r})")
            elif not (is_greeting(text) or is_name(text)):
                out.skipped.append(text[:80])
            continue
        if len(out.commands) >= MAX_COMMANDS:
            out.errors.append(f"line {number}: at most {MAX_COMMANDS} commands a mail; the rest was not read")
            break
        try:
            command = parse_line(text, number)
        except CommandValueError as exc:   # well written, a value out of its range: NOT DONE, with the range
            out.commands.append(PlayerCommand(exc.name, {"problem": str(exc)}, number, text))
            continue
        except CommandSyntaxError as exc:
            out.errors.append(f"line {number}: {exc} ({text[:80]!r})")
            continue
        if command.name == "press":   # the message is every line after it, up to END
            body: list[str] = []
            while i < len(own) and not _END.match(own[i][1]):
                body.append(own[i][1])
                i += 1
            message = clean_text("\n".join(body)).strip()
            if not message:
                out.errors.append(f"line {number}: PRESS needs the message on the lines after it")
                continue
            if len(message) > PRESS_CHARS:
                command = PlayerCommand("press", {**command.args, "problem": f"press is at most {PRESS_CHARS} "
                                                  f"characters (this has {len(message)}): nothing was relayed"},
                                        number, text)
                out.commands.append(command)
                continue
            command = PlayerCommand("press", {**command.args, "message": message}, number, text)
        out.commands.append(command)
    return out


def _mistyped(text: str) -> bool:
    """A line that looks like a command mistyped, not prose or a name: its first word written in capitals
    ("LSIT", "FLY AWAY"), or like a command's and followed by a game code ("Joim RR-7")."""
    words = text.split()
    if words[0].isupper() and words[0].isalpha() and len(words[0]) > 1:   # "FLY AWAY", "LSIT"
        return True
    return bool(did_you_mean(words[0], _HEAD_WORDS)) and any(any(c.isdigit() for c in w) for w in words[1:3])


def parse_line(text: str, line: int = 0) -> PlayerCommand:
    """One command line -> :class:`PlayerCommand`, or :class:`CommandSyntaxError`."""
    words = text.split()
    head = words[0].upper()

    def cmd(name: str, **args: Any) -> PlayerCommand:
        return PlayerCommand(name, args, line, text)

    if head in ("LIST", "GAMES"):
        if len(words) != 1:
            raise CommandSyntaxError(f"{head} takes nothing after it")
        return cmd(head.lower())
    if head == "JOIN":
        if len(words) == 2:
            return cmd("join", game=_game(words[1]), robot=None)
        if len(words) == 4 and words[2].upper() == "AS":
            return cmd("join", game=_game(words[1]), robot=_robot(words[3]))
        raise CommandSyntaxError("JOIN <game> or JOIN <game> AS <robot name>")
    if head == "WHOIS":
        if len(words) != 2:
            raise CommandSyntaxError("WHOIS <robot name> or WHOIS <address>")
        who = words[1].strip("<>")
        if "@" in who:
            return cmd("whois", address=_address(who, "whois"), robot=None)
        return cmd("whois", address=None, robot=_robot(who))
    if head in ("OBSERVE", "UNOBSERVE", "RESIGN"):
        if len(words) != 2:
            raise CommandSyntaxError(f"{head} <game>, e.g. {head} RR-7")
        return cmd(head.lower(), game=_game(words[1]))
    if head == "CONFIRM":
        if len(words) != 2 or not _TOKEN.match(words[1].lower()):
            raise CommandSyntaxError("CONFIRM <the token of the confirmation mail>")
        return cmd("confirm", token=words[1].lower())
    if head == "SET" and len(words) >= 2 and words[1].upper() == "ADDRESS":
        if len(words) != 3:
            raise CommandSyntaxError("SET ADDRESS <new address>")
        return cmd("set_address", address=_address(words[2].strip("<>"), "set_address"))
    if head == "SET" and len(words) >= 2 and words[1].upper() == "WHOIS":
        if len(words) != 3 or words[2].upper() not in ("ON", "OFF"):
            raise CommandSyntaxError("SET WHOIS ON (WHOIS may show your address) or SET WHOIS OFF")
        return cmd("set_whois", show=words[2].upper() == "ON")
    if head == "SET" and len(words) >= 2 and words[1].upper() == "PICTURES":
        how = ("SET PICTURES ALL (the pictures and the animation), SET PICTURES STAGES (the pictures, no "
               "animation) or SET PICTURES NONE (text only)")
        if len(words) != 3:
            raise CommandSyntaxError(how)
        if words[2].upper() not in PICTURES:   # written right, a value it does not take: NOT DONE, with the three
            raise CommandValueError("set_pictures", f"{words[2][:20]!r} is none of them: {how}")
        return cmd("set_pictures", pictures=words[2].lower())
    if head == "ABSENT":
        return _absent(words[1:], cmd)
    if head == "PRESS":
        if len(words) != 3 or words[1].upper() != "TO":
            raise CommandSyntaxError("PRESS TO ALL or PRESS TO <robot>, then the message on the lines after it")
        target = words[2].rstrip(":")
        return cmd("press", to=None if target.upper() == "ALL" else _robot(target))
    raise CommandSyntaxError("unknown command (LIST, JOIN, WHOIS, OBSERVE, UNOBSERVE, RESIGN, SET ADDRESS, "
                             "SET WHOIS, SET PICTURES, ABSENT, GAMES, PRESS)")


def _game(word: str) -> str:
    if not _GAME.match(word):
        raise CommandSyntaxError(f"{word[:40]!r} is no game code (like RR-7)")
    return word.upper()


def _robot(word: str) -> str:
    if not _ROBOT.match(word):
        raise CommandSyntaxError(f"{word[:40]!r} is no robot name (a letter, then letters, digits, - or _)")
    return word


def _address(word: str, name: str) -> str:
    why = ranges.address_problem(word)
    if why is not None:
        raise CommandValueError(name, why)
    return word.lower()


def _day(word: str) -> datetime:
    try:
        day = date.fromisoformat(word) if len(word) == 10 else None
    except ValueError:
        day = None
    if day is None:
        raise CommandValueError("absent", f"{word[:20]!r} is no day (write it like 2026-12-01)")
    return datetime(day.year, day.month, day.day, tzinfo=UTC)


def _absent(words: list[str], cmd: Any) -> PlayerCommand:
    if len(words) == 1 and words[0].upper() == "NONE":
        return cmd("absent", starts=None, ends=None)
    if len(words) != 3 or words[1].upper() not in ("TO", "UNTIL"):
        raise CommandSyntaxError("ABSENT <first day> TO <last day>, e.g. ABSENT 2026-12-01 TO 2026-12-08 "
                                 "(ABSENT NONE: you are back)")
    starts, last = _day(words[0]), _day(words[2])
    if (why := ranges.span_problem(starts.date(), last.date())) is not None:
        raise CommandValueError("absent", why)
    return cmd("absent", starts=starts, ends=last)   # and against today by set_absence
