"""What the intake tells players: the subjects of its answers, the prose around the order echo, STATUS,
and why orders were not taken (see :mod:`referee.messages` for the tone)."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING

from ..common.deadlines import deadline_text
from ..engine import Card, Robot, shown, square_name
from ..orders.language import facing_name
from ..orders.replies import card_text

if TYPE_CHECKING:
    from ..store.models import Game, Player, Turn

#: a line between the parts of one answer (the echo, then the answers to HELP, STATUS, ...)
RULE = "\n" + "-" * 60 + "\n\n"


def joined(*parts: str) -> str:
    """The parts of one answer, with a rule between them (empty parts left out)."""
    return RULE.join(p.rstrip("\n") + "\n" for p in parts if p)


# -- subjects -------------------------------------------------------------------------------------------
def subject_for(game: Game | None, player: Player | None, turn: Turn | None, what: str) -> str:
    parts = [p for p in (game.code if game else None, player.robot if player else None,
                         f"turn {turn.number}" if turn is not None else None) if p]
    return f"{' '.join(parts)}: {what}" if parts else f"Your mail to the referee: {what}"


ORDERS_ACCEPTED = "orders accepted"
ORDERS_REFUSED = "orders not accepted"
SECOND_HAND = "your second hand (Recompile)"
NOT_READABLE = "mail not readable"
NOT_YOUR_ROBOT = "not your robot"
NOT_UNDERSTOOD = "not understood"
ANSWERS_PAUSED = "answers paused"
FORGED = "mail in your name refused"


def commands_subject(commands: Sequence[str]) -> str:
    """The subject of an answer to commands alone: ``HELP, STATUS``."""
    return ", ".join(c.upper() for c in commands)


def copy_subject(subject: str) -> str:
    return f"Copy: {subject}"


# -- answers --------------------------------------------------------------------------------------------
def answers_paused(limit: int, forged: bool) -> str:
    """To a sender whose error answers are held back for the rest of the hour."""
    return (f"You have had {limit} answers about {paused_what(forged)} this hour.\n"
            "Further ones this hour are not answered (your accepted orders always are).\n")


def paused_what(forged: bool) -> str:
    return "mails in your name that look forged" if forged else "mails with errors"


def copy_note(sender: str, verdict: str, robot: str, game: str) -> str:
    """Heads the copy of an answer sent to the address of record when the key was used from elsewhere."""
    return (f"A mail from {sender} carrying your key was {verdict} for {robot} in {game}.\n"
            "The answer goes to your address of record only. If that mail was not yours, tell the\n"
            "game master: your key can be changed.\n\n")


def refused_from_elsewhere(errors: int, address: str) -> str:
    """A keyed mail with errors from another address: nothing of it is quoted back."""
    return (f"Nothing in it was taken ({errors} error(s)). If it was your mail, send it again\n"
            f"from your address of record, {address}.\n")


def no_cards(game: str) -> str:
    """CARDS when the game has no open turn."""
    return f"Game {game} has no open turn, so you hold no cards.\n"


def recompiled(game: str, robot: str, turn: int | None, hand: Sequence[Card], locked: dict[int, Card]) -> str:
    """The head of the answer to RECOMPILE: the second hand, and what it means for the turn."""
    lines = [f"RECOMPILE: {robot} has been dealt a second hand for turn {turn if turn is not None else '?'} of "
             f"{game}.", "The first hand is gone, and any program you sent for it with it: send your program",
             "for the hand below. The deadline does not move. Recompiling costs 1 damage, taken",
             "when the turn is resolved.", "",
             f"Your hand ({len(hand)} cards, numbered as you may name them):"]
    lines += [f"  {i:2d}  {card}" for i, card in enumerate(hand, start=1)]
    lines += [f"  register {reg} is fused with {card}" for reg, card in sorted(locked.items())]
    return "\n".join(lines) + "\n"


def not_your_robot(robot: str, game: str) -> str:
    """To a known sender writing about a robot that is not theirs, without its key."""
    return (f"Your mail is about {robot} in game {game}, which is not your robot (or the key on\n"
            "its BEGIN line is not that robot's). Nothing in it was taken.\n\n"
            "Check the BEGIN line: it must name your own robot and carry your key, as your turn mail shows.\n")


def not_understood(reason: str, robots: Sequence[tuple[str, str, str]], help_text: str | None) -> str:
    """To a known sender whose mail names no robot: why, their robots (robot, game, status), how to say."""
    lines = [*textwrap.wrap(f"Your mail could not be used: {reason}.", 78), ""]
    if robots:
        lines.append("Your robots:")
        lines += [f"  {robot} in game {game} ({status})" for robot, game, status in robots]
        lines.append("")
    lines += ["Reply to the turn mail of the game you mean, or put your orders between the BEGIN and END",
              "lines the turn mail shows:", "", "  BEGIN <game> <robot> turn <n> key <your key>", "  ...", "  END", ""]
    if help_text:
        lines += ["", help_text]
    return "\n".join(lines)


def forged(envelope: str, robot: str, game: str) -> str:
    """To a player when a mail in her name came from another domain without the key."""
    return (f"A mail in your name from {envelope} was refused: it carried no key for {robot}\n"
            f"in game {game}, and it was not sent from your mail provider. Nothing in it was taken.\n\n"
            "If it was yours, reply to your turn mail instead (the reply address carries your key).\n")


# -- why orders were not taken (each an error of the answer) -----------------------------------------------
NO_KEY = ("this mail carries no key, so its orders were not taken: reply to your turn mail, or put your orders "
          "in the BEGIN ... END block below (its BEGIN line holds your key)")


def game_closed(game: str, status: str) -> str:
    return f"game {game} is {status}: no orders are taken"


def robot_gone(robot: str, status: str) -> str:
    return f"{robot} is {'out of the game' if status == 'out' else 'ejected'}: no orders are taken"


def not_in_turn(robot: str, turn: int) -> str:
    return f"{robot} is not in turn {turn}"


def stale_reply(answered: int, turn: int) -> str:
    return (f"this mail answers the mail for turn {answered}, but turn {turn} is being played "
            "(stale orders are not used): reply to the newest turn mail")


def late(received: datetime, turn: int, deadline: datetime) -> str:
    return (f"these orders came at {received:%Y-%m-%d %H:%M} UTC, after the deadline of turn {turn} "
            f"({deadline:%Y-%m-%d %H:%M} UTC)")


PAUSED = "the game is paused (the deadline moves on by the pause)"


# -- STATUS ---------------------------------------------------------------------------------------------
def status_text(game: Game, player: Player, turn: Turn | None, robots: Sequence[Robot], *,
                orders: dict[int, str], now: datetime) -> str:
    """The answer to STATUS: the game, the turn, who has sent orders, and the player's own robot."""
    lines = [f"Game {game.code}" + (f" ({game.title})" if game.title else "") + f" on {game.course}: {game.status}."]
    if turn is not None:
        lines.append(f"Turn {turn.number} is open.")
        if turn.deadline is not None:
            lines.append(f"Deadline: {deadline_text(turn.deadline, now, player.timezone)}.")
        else:
            lines.append("This turn has no deadline: it is resolved when every program is in.")
    elif game.status == "finished":
        lines.append(f"The game is over{f': {game.winner} won' if game.winner else ''}.")
    lines += ["", "Robots:"]
    by_name = {r.name: r for r in robots}
    for p in game.players:
        robot = by_name.get(p.robot)
        where = _where(robot)
        state = {"owed": "orders owed", "in": "orders in", "none needed": "no orders needed"}.get(
            orders.get(p.id, ""), "")
        mark = "  <- you" if p.id == player.id else ""
        lines.append(f"  {p.robot:<20} {p.status:<8} {where:<22} {state}{mark}".rstrip())
    robot = by_name.get(player.robot)
    if robot is not None:
        lines += ["", f"Your robot {player.robot}:", f"  {_where(robot)}",
                  f"  damage {robot.damage} (HP {robot.hp}), lives {robot.lives}, flags touched {robot.flags}"]
        if robot.archive is not None:
            lines.append(f"  archive marker on {square_name(robot.archive)}")
        if robot.powered_down:
            lines.append("  powered down this turn")
        lines += [f"  {words}" for words in shown.carried(robot.statuses)]
        for reg, card in sorted(robot.locked.items()):
            lines.append(f"  register {reg} is locked with {card_text(card)}")
        if robot.options:
            lines.append(f"  options: {', '.join(robot.options)}")
    return "\n".join(lines) + "\n"


def _where(robot: Robot | None) -> str:
    if robot is None:
        return "not in this turn"
    if robot.pos is None:
        return "out of the game" if robot.out_of_game else "destroyed, waiting to re-enter"
    return f"on {square_name(robot.pos)} facing {facing_name(robot.facing)}" + (" (virtual)" if robot.virtual else "")


# -- issue 30: one answer to every mail -------------------------------------------------------------------
ALREADY_ON_FILE = "already on file"


def already_on_file(robot: str, game: str, turn: int, time_left: str | None) -> str:
    """The short answer to orders sent again that change nothing on file."""
    lines = [f"Your orders for {robot} (game {game}, turn {turn}) are already on file: nothing changed.",
             "Your earlier answer shows them; send new orders to change them."]
    if time_left:
        lines += ["", f"Time left: {time_left}."]
    return "\n".join(lines) + "\n"


DIGEST = "answers of the last hour"


def digest_head(per_hour: int) -> str:
    """The start of the hour's digest: why the answers come together."""
    return (f"You wrote more mails this hour than the referee answers one by one ({per_hour} an hour).\n"
            "Every one of them is answered here, in the order they came.\n")


DIGEST_SECTION_START = "\n=== "


def digest_section(subject: str, body: str, their_subject: str) -> str:
    """One answer in the digest, headed by what it answers."""
    return f"{DIGEST_SECTION_START}{subject} (your mail \"{their_subject[:80]}\") ===\n\n{body.rstrip()}\n"


def digest_more(count: int) -> str:
    """The digest's last line once it is full: how many more mails came (follows "(and ")."""
    return (f"{count} more of your mails this hour, not written out here: write STATUS or CARDS to see\n"
            "where your robot stands, or send your orders again.)")
