"""What the referee says about signing up, a player's own commands, press and observers (issue 31)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from ..common.deadlines import deadline_text

SUBJECT = "Your commands to the referee"
CONFIRM_SUBJECT = "please confirm"

HELP = """\
Commands anyone may send (one a line, as the first lines of a mail):
  LIST                        the games open for sign-up, and those under way
  JOIN RR-7 AS <robot name>   ask for a seat (JOIN RR-7: a free robot name is offered)
  WHOIS <robot name>          who plays which robot where (WHOIS an@address works
                              only for players who allowed it)
  OBSERVE RR-7                the game's public turn results by mail (you confirm
                              first); UNOBSERVE RR-7 to stop
A player's own commands (reply to your turn mail, or put them in your BEGIN block):
  GAMES                       your games, your robots and what is due
  RESIGN RR-7                 leave the game
  SET ADDRESS new@address     move your games to a new address (it confirms first)
  SET WHOIS ON | OFF          whether WHOIS may show your address (off at first)
  SET PICTURES ALL | STAGES | NONE   the pictures your turn mails of that game carry:
                              ALL (the default) the boards and the animation, STAGES
                              the boards only, NONE text only
  ABSENT 2026-12-01 TO 2026-12-08   tell the game master you are away (ABSENT NONE: back)
  PRESS TO ALL | PRESS TO <robot>   then your message on the lines below: relayed
                              to the other players, never with your address
"""


def when(at: datetime | None, now: datetime) -> str:
    return deadline_text(at, now) or "none"


def answer(lines: Sequence[str], errors: Sequence[str], skipped: Sequence[str] = ()) -> str:
    """The answer to a command mail: what each command did, then what could not be read, then the lines
    taken for words around the commands (greetings, sign-offs and names are left out without a word)."""
    parts = [line.rstrip("\n") for line in lines]
    if skipped:
        parts += ["Taken for words around the commands (not read as commands):\n"
                  + "\n".join(f"  {line!r}" for line in skipped)]
    if errors:
        parts += ["", "These lines could not be read (nothing was done for them):", *(f"  {e}" for e in errors),
                  "", "Send HELP for the commands."]
    return "\n\n".join(p for p in parts if p is not None).strip("\n") + "\n"


def done(command: str, said: str) -> str:
    return f"{command}\n    {said}"


def not_done(command: str, why: str) -> str:
    return f"{command}\n    NOT DONE: {why}"


NEEDS_KEY = ("this command needs your key: reply to a mail of your game (its reply address carries your key), or "
             "put it in a block that starts with your BEGIN line (BEGIN RR-7 Twonky key ...)")


# -- LIST, WHOIS ------------------------------------------------------------------------------------------
def listing(rows: Sequence[tuple[str, str, str, int, int, datetime | None, Sequence[str], Sequence[str]]],
            now: datetime) -> str:
    """``LIST``: (code, course, state, players, seats, deadline, game masters, open seats) per game."""
    if not rows:
        return "No game is open for sign-up or under way."
    out = []
    for code, course, state, players, seats, deadline, gms, free in rows:
        gm = ", ".join(gms) or "-"
        if state == "open for sign-up":
            out.append(f"{code}  {course}: open for sign-up, {players} of {seats} seats taken, sign-up until "
                       f"{when(deadline, now) if deadline else 'the game starts'}; GM {gm}")
        else:
            seat = f"; open seat: {', '.join(free)} (JOIN {code})" if free else ""
            out.append(f"{code}  {course}: {state}, {players} robots playing, deadline {when(deadline, now)}; "
                       f"GM {gm}{seat}")
    return "\n".join(out)


def whois(asked: str, rows: Sequence[tuple[str, str, str, str | None]]) -> str:
    """``WHOIS``: (game, robot, status, address or None) per seat."""
    if not rows:
        return f"nobody known as {asked} (an address is shown only where its player allowed it)"
    return "\n".join(f"{robot} in {game} ({status}): {address or 'address not shown'}"
                     for game, robot, status, address in rows)


# -- JOIN and the GM's decision -------------------------------------------------------------------------
def joined(game: str, robot: str, offered: bool) -> str:
    name = f"as {robot} (a free name; JOIN {game} AS <name> for another)" if offered else f"as {robot}"
    return f"asked for a seat in {game} {name}; the game master decides, and you will be told"


def gm_join_subject(game: str, robot: str) -> str:
    return f"{game}: {robot} asks to join"


def gm_join(game: str, robot: str, address: str, seat: str | None) -> str:
    takes = f"to take over {seat}'s open seat" if seat else "for a seat"
    return (f"{address} asks to join {game} as {robot} ({takes}).\n\n"
            f"Answer with a GM block:\n  BEGIN GM {game} key <your key>\n  ACCEPT {robot}\n  END\n"
            f"or REFUSE {robot} <reason>.\n")


def accepted_subject(game: str, robot: str) -> str:
    return f"{game}: you play {robot}"


def accepted(game: str, robot: str, key: str, started: bool, takeover: str = "") -> str:
    """To a player the GM accepted; ``takeover``: the open turn's cards and form, for a seat taken over in a
    game under way."""
    more = ("The game has started: your first turn mail comes separately." if started
            else "The game master starts the game once the seats are filled: your first turn mail comes then.")
    if takeover:
        more = f"The game is under way: you take over {robot} from now on.\n\n{takeover}"
    return (f"The game master of {game} accepted you: you play {robot}.\n\n{more}\n\n"
            f"Your key for {game} is {key}. Replies to the referee's mails carry it by themselves; a new mail "
            f"carries it on its BEGIN line: BEGIN {game} {robot} key {key}\n")


def refused_subject(game: str) -> str:
    return f"{game}: your sign-up"


def refused(game: str, robot: str, reason: str | None) -> str:
    return (f"The game master of {game} did not accept your sign-up as {robot}"
            + (f": {reason}" if reason else ".") + "\n")


# -- a player's own commands --------------------------------------------------------------------------
def resigned(game: str, robot: str, outcome: str) -> str:
    if outcome == "left":
        return f"you left {game}; your seat ({robot}) is free again"
    tail = ("the game master may give the robot to a new player; until then it plays by the game's missing "
            "orders policy" if outcome == "open" else "the robot plays on by the game's missing orders policy")
    return f"you resigned from {game}: you get no more mails of it; {tail}"


def gm_resigned_subject(game: str, robot: str) -> str:
    return f"{game}: {robot} resigned"


def gm_resigned(game: str, robot: str, outcome: str) -> str:
    if outcome == "left":
        return f"The player of {robot} left {game} before it started: the seat is free again.\n"
    if outcome == "open":
        return (f"The player of {robot} resigned from {game}. The seat is open: LIST shows it, a JOIN for it comes "
                f"to you, or say REPLACE {robot} WITH <address>. Until then the robot plays by the game's missing "
                "orders policy.\n")
    return f"The player of {robot} resigned from {game}; the robot plays on by the game's missing orders policy.\n"


def address_asked(new: str) -> str:
    return f"a mail went to {new}: your address changes when it is answered from there (within 7 days)"


def _how_to_confirm(token: str, otherwise: str) -> str:
    """The end of every confirmation mail: how to confirm, and what happens if nobody does."""
    return ("If that was you, reply to this mail (the subject carries the confirmation), or send a mail\n"
            f"whose first line is:\n\n  CONFIRM {token}\n\nIf not, ignore this mail: {otherwise}.\n")


def confirm_address(old: str, new: str, token: str) -> str:
    return (f"Someone writing as {old} asked the RoboRally referee to send their games' mail to this address,\n"
            f"{new}, from now on.\n\n"
            + _how_to_confirm(token, "nothing changes, and this address gets nothing more"))


def address_changed(games: Sequence[str], new: str) -> str:
    return f"your address of record is now {new} (in {', '.join(games) or 'no game'})"


def address_changed_gm(robot: str, game: str, old: str, new: str) -> str:
    return f"The player of {robot} in {game} moved from {old} to {new}.\n"


def whois_set(show: bool) -> str:
    return "WHOIS shows your address" if show else "WHOIS does not show your address"


def pictures_set(pictures: str, robot: str, game: str) -> str:
    what = {"all": "the pictures of the board and the animation of the turn",
            "stages": "the pictures of the board, without the animation",
            "none": "no pictures: text only"}[pictures]
    return f"pictures {pictures.upper()}: {robot}'s turn mails in {game} carry {what}, from the next one on"


def absent(robots: Sequence[str], starts: datetime | None, last: datetime | None) -> str:
    if starts is None or last is None:
        return f"you are no longer marked away ({', '.join(robots)})"
    return f"away from {starts:%a %d %b %Y} to {last:%a %d %b %Y} ({', '.join(robots)}); the game master sees it"


def gm_absent_subject(game: str, robot: str) -> str:
    return f"{game}: {robot}'s player is away"


def gm_absent(game: str, robot: str, starts: datetime | None, last: datetime | None, policy: str) -> str:
    if starts is None or last is None:
        return f"The player of {robot} in {game} is no longer away.\n"
    then = ("The game does not wait for an absent player: turns whose deadline falls then are played by the "
            "missing orders policy." if policy == "autopilot" else
            "The game waits as usual: EXTEND the deadline if you want to wait for them.")
    return f"The player of {robot} in {game} is away from {starts:%a %d %b %Y} to {last:%a %d %b %Y}.\n{then}\n"


def my_games(rows: Sequence[tuple[str, str, str, int, datetime | None, str, tuple[datetime, datetime] | None]],
             now: datetime) -> str:
    """``GAMES``: (game, status, robot, turn, deadline, due, absence) per robot."""
    if not rows:
        return "you play in no game that is not over"
    out = []
    for game, status, robot, turn, deadline, due, away in rows:
        line = f"{robot} in {game} ({status}"
        line += f", turn {turn}, deadline {when(deadline, now)}): {due}" if turn else f"): {due}"
        if away:
            line += f"; away {away[0]:%d %b} to {away[1]:%d %b}"
        out.append(line)
    return "\n".join(out)


# -- press ----------------------------------------------------------------------------------------------
def press_subject(game: str, signed_by: str | None, to_all: bool) -> str:
    who = signed_by or "a player (anonymous)"
    return f"{game}: press from {who}" + ("" if to_all else " to you")


def press(game: str, signed_by: str | None, to_all: bool, message: str) -> str:
    who = f"{signed_by}" if signed_by else "A player (grey press: the sender is not named)"
    to = "to every player" if to_all else "to you alone"
    return (f"{who} writes {to} in {game}:\n\n{message}\n\n"
            "(Relayed by the referee; nobody's address is shown. Answer with PRESS TO ALL or PRESS TO <robot> "
            "as the first line of a reply to this mail.)\n")


def press_sent(to: Sequence[str], withheld: int) -> str:
    said = f"relayed to {', '.join(to)}" if to else "relayed to nobody"
    return said + (f" ({withheld} not sent now: the answer limit of this hour)" if withheld else "")


# -- observers ------------------------------------------------------------------------------------------
def observe_asked(game: str, address: str) -> str:
    return f"a confirmation went to {address}: the results of {game} follow once it is answered"


def confirm_observe(game: str, address: str, token: str) -> str:
    return (f"Someone asked the RoboRally referee to send the public turn results of {game} to this address,\n"
            f"{address}.\n\n"
            + _how_to_confirm(token, "this address gets nothing more"))


def observing(game: str) -> str:
    return (f"you observe {game}: its public turn results come to you after each turn. Every one of them "
            f"carries an unsubscribe link; UNOBSERVE {game} works as well")


def unsubscribed(games: Sequence[str]) -> str:
    if not games:
        return "you observe no game: this address gets no results from the referee"
    return (f"you no longer observe {', '.join(games)}: no more of its results come to you "
            f"(OBSERVE {games[0]} to come back)")


def how_to_stop(game: str) -> str:
    """The line every observer mail carries in its text."""
    return (f"You get this because you observe {game}. To stop, reply with the word unsubscribe (or send "
            f"UNOBSERVE {game}), or use your mail program's unsubscribe button.")


def unobserved(game: str) -> str:
    return f"you no longer observe {game}: no more of its results come to you"
